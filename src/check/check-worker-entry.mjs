// Worker threads do not inherit the main thread's TypeScript loader: register tsx here, then load
// the task module. piscina takes this module's default export as the task function.
import { register } from 'tsx/esm/api';

register();
const mod = await import('./worker.ts');
export default mod.default;
