// Worker threads do not inherit the main thread's TypeScript loader: register tsx here, then load
// the task module. piscina takes this module's default export as the task function. The bundle
// (scripts/build.mjs) builds src/campaign/worker.ts under this name in its place.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./worker.ts');
export default mod.default;
