// Package config finds named MCP servers in the config files of mcpcli and
// of the tools people already use (Claude Code, Claude Desktop, VS Code,
// Cursor), so that `mcpcli -s github tools` works with what is already set
// up.
//
// # Where servers come from
//
// A name is looked up in these files:
//
//  1. the file given with --config FILE (it must exist);
//  2. the project's files, searched from the working directory upward to
//     the root of the filesystem; each directory checks, in order,
//     .mcp.json (Claude Code), .vscode/mcp.json (VS Code) and
//     .cursor/mcp.json (Cursor), and nearer directories win;
//  3. mcpcli's own file, $XDG_CONFIG_HOME/mcpcli/servers.json (by default
//     ~/.config/mcpcli/servers.json; %APPDATA%\mcpcli\servers.json on
//     Windows when XDG_CONFIG_HOME is not set);
//  4. other tools' user files, read but never written:
//     Claude Desktop's claude_desktop_config.json (Linux
//     ~/.config/Claude/, macOS ~/Library/Application Support/Claude/,
//     Windows %APPDATA%\Claude\), then Claude Code's ~/.claude.json
//     ($CLAUDE_CONFIG_DIR/.claude.json when that is set), first the servers
//     it keeps for the working directory (projects[DIR].mcpServers), then
//     its user servers (mcpServers), then Cursor's ~/.cursor/mcp.json.
//
// # Trust
//
// A project file comes with the code it sits in, and its servers run as
// the person, so none of them is started, asked for inputs or expanded
// until the person trusts the file: Options.Approve asks them (showing
// everything the file would run, TrustAsk), TrustStore remembers a yes by
// the file's path and the SHA-256 of its content, and a changed file is
// asked about again. Options.TrustProject trusts every project file for
// one run. Without a way to ask, a server only an untrusted project file
// defines is an *UntrustedError.
//
// What runs for a name is the --config file's definition; else a trusted
// project file's (nearest first); else the first of the person's own
// files (3 and 4 above); else an untrusted project file's, once trusted.
// An untrusted project file never takes a name from the person's own
// files; Server.Others lists the definitions that do not run, so that the
// person can be told which one does.
//
// Project files can come from anywhere above the working directory, so on
// Unix a project file that belongs to neither you nor root (or is a
// symbolic link that does) is skipped, as git refuses a repository
// another user owns; "mcpcli servers" says so, and --config FILE reads it
// anyway. Every file is read only if it is a regular file of at most
// MaxFileSize bytes: a FIFO, a device or a directory is refused at once,
// without waiting or reading.
//
// Missing files are skipped. Files are read only when needed, and a file
// that cannot be read or parsed is an error only when the lookup needs it
// (it might have defined the name). ~/.cursor/mcp.json is read once, as
// Cursor's user file, even when the upward search passes through the home
// directory.
//
// # The shape of a file
//
// Claude Code, Claude Desktop, Cursor and mcpcli keep servers under
// "mcpServers"; VS Code keeps them under "servers", beside an "inputs"
// array. A --config file may use either. Each server is an object:
//
//	{
//	  "mcpServers": {
//	    "github": {
//	      "command": "npx",
//	      "args": ["-y", "@modelcontextprotocol/server-github"],
//	      "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}
//	    },
//	    "notion": {
//	      "type": "http",
//	      "url": "https://mcp.notion.com/mcp",
//	      "headers": {"Authorization": "Bearer ${NOTION_TOKEN}"},
//	      "oauth": {"clientId": "mcpcli", "scopes": ["read"]}
//	    }
//	  }
//	}
//
// The fields mcpcli reads:
//
//   - type: "stdio", "http" (Streamable HTTP; also written "streamableHttp"
//     or "streamable-http") or "sse". Without it, an entry with a command
//     is stdio and one with a url is http.
//   - command, args (an array of strings), env (an object of strings; a
//     number is taken as written, and null, as in VS Code, removes the
//     variable from what the server inherits), envFile (a dotenv file of
//     more variables; env wins over it) and cwd, for a server started as a
//     command.
//   - url (or serverUrl) and headers (an object of strings), for a remote
//     server.
//   - oauth, for a remote server that needs a sign-in: clientId,
//     clientSecretEnv (the name of an environment variable holding the
//     client secret, never the secret itself), clientMetadataUrl, scopes
//     (an array, or one space-separated string as Claude Code writes it),
//     and Claude Code's callbackPort and authServerMetadataUrl. Any other
//     key in oauth is an error.
//
// An entry has a command or a url, never both. Other fields (disabled,
// autoApprove, and whatever other tools add) are ignored, and kept when
// mcpcli rewrites its own file. Relative envFile and cwd paths are relative
// to the project directory for a project file, and to the working
// directory otherwise.
//
// Files are JSON, in UTF-8, with or without a byte-order mark. VS Code's
// file and a --config file may also hold comments and trailing commas, as
// VS Code allows. A key repeated in one object (two servers of one name,
// two "args" in one server) is an error: a config file must mean one
// thing. A file holding only whitespace defines nothing.
//
// An envFile has one NAME=value per line; lines starting with # are
// comments, "export " before a name is allowed, a value may be in single
// quotes (taken as is) or double quotes (with \n, \t, \" and \\ escapes),
// and an unquoted value ends at " #". Nothing in it is expanded.
//
// # Expansion
//
// In command, args, env values, envFile, cwd, url and header values:
//
//   - ${VAR} is the environment variable VAR; that it is not set is an
//     error naming the file, the server and the variable.
//   - ${VAR:-default} is VAR, or default when VAR is unset or empty; the
//     default may itself hold ${...}.
//   - ${env:VAR} and ${env:VAR:-default} are the same, as VS Code writes them.
//   - ${input:ID} (VS Code) is asked of the user, as the file's "inputs"
//     describes it (a promptString with a description, an optional default,
//     and "password": true to hide what is typed), once per file and ID
//     for the run. Other input types (pickString, command) are an error.
//   - ${workspaceFolder} is the project directory: the one holding
//     .mcp.json, .vscode or .cursor, or the --config file (its parent when
//     it sits in .vscode or .cursor); for user files it is the working
//     directory. ${workspaceFolderBasename}, ${userHome} and
//     ${pathSeparator} (or ${/}) work as in VS Code.
//   - $${ is a literal ${. A $ not followed by { is kept as it is, so
//     "$HOME" and "$$" reach the server unchanged.
//
// Values are expanded only for the server being used, when it is used: a
// broken entry, or a variable missing for another server, does not get in
// the way. The oauth fields are not expanded; clientSecretEnv is read from
// the environment when the server is used.
//
// # Managing servers
//
// List reports every definition, with its file, transport and whether a
// file of higher precedence shadows it. Add and Remove edit mcpcli's own
// file only, keeping everything else in it; other tools' files are never
// written.
//
// # Use
//
//	opts, err := config.SystemOptions()
//	if err != nil {
//		return err
//	}
//	opts.File = configFlag // --config, or ""
//	opts.Ask = askInput     // func(config.Input) (string, error); masks when in.Password
//	opts.Approve = review   // func(config.TrustAsk) (bool, error): shows the file, asks yes or no
//	opts.Trusted = &config.TrustStore{Path: stateDir + "/trusted-projects.json"}
//	cfg, err := config.Load(opts)
//	if err != nil {
//		return err
//	}
//	srv, err := cfg.Server("github") // --server github
//	if err != nil {
//		return err // one line, naming the file and the server
//	}
//	switch srv.Transport {
//	case config.Stdio:
//		start(srv.Argv(), srv.Environ(), srv.Cwd)
//	case config.HTTP, config.SSE:
//		connect(srv.URL, srv.Headers, srv.OAuth)
//	}
//
// Every string from a file (names, descriptions, commands, URLs) must be
// sanitized before it reaches a terminal; the messages of this package's
// errors already quote them.
package config
