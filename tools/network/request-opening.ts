/**
 * How the tools that send a request of the model's making (http_request, download_file) open it:
 * the URL checked to be http(s), credentials in it moved to an Authorization header (unless one is
 * given), the headers checked, and the credential values collected so every answer can be scrubbed
 * of them.
 */
import { parseHttpUrl, splitCredentials } from './http-url';
import { checkedHeaders, hasHeader } from './request-headers';
import { secretValues } from './secrets';

export interface OpenedRequest {
  /** The URL as given (with any credentials), for redacting what is shown back. */
  given: URL;
  /** The URL to send: without credentials. */
  url: URL;
  headers: Record<string, string>;
  /** Credential values sent (headers, URL user-info), to scrub from results and errors. */
  secrets: string[];
}

export function openRequest(rawUrl: string, rawHeaders: Record<string, string> | undefined): OpenedRequest {
  const given = parseHttpUrl(rawUrl);
  const { url, authorization } = splitCredentials(given);
  const headers = checkedHeaders(rawHeaders);
  if (authorization && !hasHeader(headers, 'authorization')) headers.Authorization = authorization;
  return { given, url, headers, secrets: secretValues(headers, given) };
}
