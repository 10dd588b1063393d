// Front door of networks/: an organization's registered networks, in every instance's memory.
// What other folders may use; nothing else of this folder is imported from outside.
export { registeredNetworks } from './registry';
export type { NetworkIndex } from './registry';
/** Loaded when called, not with this door: it is kept off the cold start. */
export const loadRoutes = () => import('./routes');
