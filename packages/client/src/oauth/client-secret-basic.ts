import type * as oauth from "oauth4webapi";

/**
 * `client_secret_basic` (RFC 6749 §2.3.1): the client id and secret, each URL-encoded, in an HTTP
 * Basic `Authorization` header. Encoded with `encodeURIComponent`, which leaves `-`, `_`, `.`,
 * `!`, `~`, `*`, `'`, `(` and `)` as they are: oauth4webapi's own `ClientSecretBasic` escapes
 * those too (`pre-registered` becomes `pre%2Dregistered`), and authorization servers that compare
 * the decoded header without URL-decoding it then refuse the client.
 */
export function clientSecretBasic(clientSecret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    // encodeURIComponent output is ASCII, so btoa cannot throw on it.
    const credentials = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(clientSecret)}`;
    headers.set("authorization", `Basic ${btoa(credentials)}`);
  };
}
