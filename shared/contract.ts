/**
 * The contract between the host and the renderer. Every request, response and event that crosses
 * IPC (Electron) or HTTP + WebSocket (headless) is declared once as a zod schema, by area in
 * shared/contract/ (this module gathers them); both sides derive their types from it and the host
 * parses every argument with it. Imports only zod.
 *
 * Transport: a method `m` is `POST /api/rpc/m` with the JSON input as body (headless) or the IPC
 * channel `toolgate:m` (Electron). Events arrive on the WebSocket `/api/events` or the IPC channel
 * `toolgate:event`. Every method is the person's: over HTTP it needs the UI session and its CSRF
 * header (ui-session.ts); an MCP client's token is refused there. A device's live screen has a
 * channel of its own per viewer (screen-wire.ts): the WebSocket `/api/screen`, or IPC.
 */
export * from './contract/tools';
export * from './contract/traces';
export * from './contract/breakers';
export * from './contract/approvals';
export * from './contract/calls';
export * from './contract/shortcuts';
export * from './contract/surfaces';
export * from './contract/clients';
export * from './contract/settings';
export * from './contract/skills';
export * from './contract/github';
export * from './contract/methods';
export * from './contract/events';
export * from './contract/renderer-api';
