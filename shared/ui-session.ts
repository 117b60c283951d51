/**
 * The names both sides of the headless UI session agree on. A person's browser holds the session in
 * an HttpOnly cookie it got from a one-time link; every call of the page also sends the session's
 * CSRF token (readable by the page from its own cookie) in a header, which no other site can do.
 */
export const UI_SESSION_COOKIE = 'toolgate_ui';
export const CSRF_COOKIE = 'toolgate_csrf';
export const CSRF_HEADER = 'x-toolgate-csrf';
/** `GET /session/<one-time secret>` opens a UI session and redirects to the UI. */
export const UI_LINK_PATH = '/session/';
