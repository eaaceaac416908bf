package main

import "github.com/spf13/cobra"

func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{
			Use:   "answers",
			Short: "The answers file format (--answers)",
			Long: `--answers FILE (or - for stdin) answers elicitations without asking anyone.
The file is a JSON object keyed by the server's input request keys:

  {
    "confirm_delete": {"action": "accept", "content": {"confirm": true}},
    "profile":        {"action": "accept", "content": {"name": "Ada", "email": "ada@example.com", "languages": ["en"]}},
    "details":        [{"action": "accept", "content": {"license": "MIT"}}, {"action": "cancel"}],
    "connect":        {"action": "decline"},
    "*":              {"action": "cancel"}
  }

For each ask mcpcli looks up the exact key first, then "*". A single answer
is used every time the key is asked; a list is used one entry per round, and
running out is an error naming the key and the round. Elicitations from
older servers (sent as elicitation/create requests) have no key: they match
"elicitation", then "*".

action is accept, decline or cancel. content goes only with accept, and only
for form mode; it must fit the requested schema (the same checks as the
form), or mcpcli stops before sending it. A field the content leaves out
that has a default in the schema is sent with that default (as a form
does, and as the spec's defaults rule wants), so what is sent never depends
on the protocol version. For a URL ask, accept means the script consents:
the URL is printed on stderr. The URL asks of a -32042 error (2025-11-25
servers) are answered under "elicitation" too.

--save-answers FILE writes the answers you give by hand (and the sampling
replies you write) in this format, to send them again later with --answers
FILE; when a retry carrying your answers fails, mcpcli keeps them in a file
of this format and says how to send them again.

Sampling requests (declared with --sampling) are answered the same way,
under the input request's key, or "sampling" for a request from an older
server. The answer is the model's reply, a CreateMessageResult:

  {
    "draft":    {"role": "assistant", "content": {"type": "text", "text": "Version 2 is out."}, "model": "my-model"},
    "sampling": {"action": "decline"}
  }

role is assistant (the default); content is one content block (text, image
or audio) or a list of them; model is required; stopReason defaults to
endTurn. {"action": "decline"} refuses: in a 2026-07-28 request that ends
the request, by the spec (exit 130); an older server gets the JSON-RPC
error -1 "User rejected sampling request". A "*" key with {"action":
"decline"} declines elicitations and sampling requests alike. Without
--sampling, a server that asks for sampling is an error that says so.`,
		},
		{
			Use:   "trace",
			Short: "The trace format (--trace)",
			Long: `--trace FILE (or - for stderr) writes one JSON object per line for every
JSON-RPC message, in both directions, exactly as it crossed the wire:

  {"time":"2026-11-30T10:00:00.123Z","dir":"send","msg":{"jsonrpc":"2.0","id":3,"method":"tools/call",...}}
  {"time":"2026-11-30T10:00:00.130Z","dir":"recv","msg":{"jsonrpc":"2.0","id":3,"result":{"resultType":"input_required",...}}}

Over HTTP it also writes the headers of each request and response, with the
values of Authorization, Proxy-Authorization, Cookie and Set-Cookie, and of
every header you gave with --header or in a config file, replaced by
"[redacted]":

  {"time":"…","dir":"send","http":{"method":"POST","url":"http://…/mcp","headers":{…}}}
  {"time":"…","dir":"recv","http":{"status":200,"headers":{…}}}

Use it to check a server's multi round-trip behaviour: every retry has a new
id, the same arguments, inputResponses keyed as asked, and the requestState
the server sent, unchanged.`,
		},
		{
			Use:   "accessible",
			Short: "Line-by-line answering (--accessible, and piped stdin)",
			Long: `With --accessible, or when stdin is not a terminal and there is no --answers
file, mcpcli asks each question as a plain line on stderr and reads one line
of answer from stdin. For each form it reads:

  1. a, d or c: accept (and fill in), decline, or cancel;
  2. one line per field, in the server's order: empty input takes the
     default, or leaves an optional field unset; choices take a number, a
     value or a title; multi-selects take a comma-separated list (- for none);
     booleans take y or n;
  3. at the review: y sends, e edits a field (then its number or name),
     d declines, c cancels.

Invalid input is explained and asked again, up to 3 times. End of input
cancels the ask. A line is read up to 1 MiB: a longer one is skipped,
said in one line naming it. So "printf 'a\nAda\n\ny\n' | mcpcli call ..." accepts
with the first field "Ada" and the second field's default.

mcpcli session --accessible is a whole session of lines on one connection:
one command a line (tools, call TOOL K=V ..., prompt, resources, read URI or
read TEMPLATE K=V ..., history, rerun N, level, roots, root add|rm DIR,
sampling on|off, save, quit), each ask answered on the lines that follow it, results on
stdout. 'mcpcli session --help' lists its commands.`,
		},
		{
			Use:   "config",
			Short: "Named servers: the config files mcpcli reads (-s NAME, --config)",
			Long: `--server NAME (-s NAME) picks a server defined in a config file. mcpcli
reads:

  1. --config FILE;
  2. the project's .mcp.json (Claude Code), .vscode/mcp.json (VS Code) and
     .cursor/mcp.json (Cursor), from the working directory upward;
  3. mcpcli's own file, ~/.config/mcpcli/servers.json
     ($XDG_CONFIG_HOME/mcpcli/servers.json): what 'mcpcli servers add' writes;
  4. read only: Claude Desktop's claude_desktop_config.json, Claude Code's
     ~/.claude.json (this directory's servers, then the user's), Cursor's
     ~/.cursor/mcp.json.

A project file (2) runs nothing until you trust it: mcpcli asks on a
terminal, showing every server it defines as written, and remembers a yes
for the file as it is (a changed file is asked about again); without a
terminal the run stops and says how. 'mcpcli servers trust FILE' trusts it
for scripts and CI, --trust-project for one run. When files define the same
name, --config's runs, then a trusted project file's, then your own files'
(3, 4), then an untrusted project file's once trusted; mcpcli says which
runs. Every config file must be a regular file of at most 16 MiB.

Servers sit under "mcpServers" (VS Code: "servers"). Each is a command or a
URL:

  {"mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
               "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}},
    "docs":   {"type": "http", "url": "https://docs.example.com/mcp",
               "headers": {"X-Api-Key": "${DOCS_KEY}"},
               "oauth": {"clientId": "my-client", "scopes": ["read"]}}
  }}

Fields: type (stdio, http, streamableHttp, sse), command, args, env (null
removes an inherited variable), envFile, cwd, url (or serverUrl), headers,
oauth (clientId, clientSecretEnv, clientMetadataUrl, scopes, callbackPort).
A "type": "sse" entry is reached over HTTP+SSE (2024-11-05), as with
--transport sse.

In those values ${VAR} and ${env:VAR} are environment variables (unset is an
error naming the file, the server and the variable), ${VAR:-default} has a
default, ${workspaceFolder} is the project directory, and VS Code's
${input:ID} is asked on the terminal (hidden when "password": true), once
per run. $${ is a literal ${.

--env, --cwd and --header add to the entry; --stdio, --url or a command
after -- with -s is an error. On Unix a project file owned by another user
is skipped; pass it with --config if you trust it. 'mcpcli servers' lists
every name with its file.`,
		},
		{
			Use:   "sign-in",
			Short: "OAuth sign-in to HTTP servers, and where tokens are kept",
			Long: `A Streamable HTTP server that answers 401 (or 403 insufficient_scope) on any
command, the session (full-screen or --accessible) and watch included, and
in the middle of a session too, gets a sign-in (OAuth 2.1, MCP
authorization); the request then goes on:

  1. its protected resource metadata names its authorization server, whose
     metadata mcpcli checks (the resource, the issuer, PKCE S256);
  2. the client: --client-metadata-url (a client ID metadata document) where
     the authorization server takes one; else --client-id, its secret from
     the entry's clientSecretEnv, $MCPCLI_CLIENT_SECRET or the keyring, never
     a flag; else dynamic registration as a native app;
  3. on a terminal the authorization link is shown like a URL-mode ask (the
     whole URL, the host, look-alike warnings) and opens in your browser when
     you type o; with --answers it is printed, and opened with --open-urls;
     without either, mcpcli says to run 'mcpcli auth login';
  4. mcpcli waits (up to 5 minutes, not counted by --timeout) for the browser
     on http://127.0.0.1:<random port>/callback, checks the state and the
     issuer, exchanges the code (PKCE, resource) and retries the request.

Tokens are kept per server and per authorization server, refreshed
silently (one that expired with no refresh token means a new sign-in), in
the system keyring (macOS Keychain, Windows Credential
Manager, the Secret Service over D-Bus), or, where there is none, in
$XDG_STATE_HOME/mcpcli/oauth.json (~/.local/state/mcpcli/oauth.json;
%LOCALAPPDATA%\mcpcli\oauth.json on Windows), mode 0600. A sign-in larger
than one keyring item holds is kept in parts. $MCPCLI_TOKEN_STORE chooses: auto, keyring or file. Tokens never appear
in a trace, a log, an error or an answers file, and are sent to the server's
own origin only (mcpcli refuses redirects to another origin).

  mcpcli auth login  -s NAME | --url URL   sign in now
  mcpcli auth status -s NAME | --url URL   issuer, scopes, expiry, where
  mcpcli auth logout -s NAME | --url URL   forget what is kept (not revoked)`,
		},
	}
}
