// Package oauth signs mcpcli in to Streamable HTTP MCP servers that
// require OAuth 2.1 (MCP authorization, 2025-11-25 and 2026-07-28).
//
// A Handler is the go-sdk's auth.OAuthHandler for one server: the
// transport asks it for the bearer token of each request, and on a 401 or
// a 403 insufficient_scope it refreshes the kept token or signs in again.
// The authorization code flow itself is the go-sdk's
// auth.AuthorizationCodeHandler (protected resource and authorization
// server metadata discovery, client registration, PKCE S256, the RFC 8707
// resource, scope selection, the RFC 9207 iss check, the code exchange).
// Around it this package adds:
//
//   - the redirect: a loopback HTTP server on 127.0.0.1, ephemeral port
//     (RFC 8252), that takes the first response carrying the sign-in's
//     state and shows a plain page;
//   - consent: the authorization URL goes through the caller's Consent
//     function (mcpcli's urlmode shows it, highlights the host, and opens
//     the browser);
//   - registration: a client ID metadata document when the authorization
//     server takes one and a URL is configured; else a pre-registered
//     client ID (secret from the environment or the keyring); else dynamic
//     registration as a native application with the loopback redirect URI;
//   - storage: tokens kept per server and per issuer, in the system keyring
//     or a 0600 file, refreshed silently, never reused with another
//     authorization server, never in an error message;
//   - bounds: a refresh before a new sign-in, at most MaxSignIns sign-ins
//     per command, and no step-up for scopes already granted.
//
// It never imports the terminal packages: the caller supplies Consent and
// Notice, and turns the typed errors into words and exit codes.
package oauth
