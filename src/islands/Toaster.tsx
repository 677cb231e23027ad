/**
 * The toast region as a component, for React apps that render it themselves
 * (the admin dashboard). Public islands use src/lib/client/toast.ts, which
 * mounts the same region lazily on the first toast.
 */
export { ToastRegion as default } from '../lib/client/ToastRegion';
