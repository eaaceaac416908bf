package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// scenarios maps each client scenario of the suite to what a person would
// type to exercise it.
var scenarios = map[string]func(*runner) error{
	// Connect (server/discover, or initialize with an older server) and list.
	"initialize":               justList,
	"request-metadata":         discoverAndList,
	"json-schema-ref-no-deref": justList,

	// List, then call the tool the scenario is about.
	"tools_call": func(r *runner) error {
		if _, err := r.list("tools"); err != nil {
			return err
		}
		return r.call("add_numbers", json.RawMessage(`{"a": 5, "b": 3}`), nil)
	},
	"sse-retry": func(r *runner) error {
		return r.call("test_reconnection", nil, nil)
	},

	// Accept the form as the server filled it: no content of our own, so
	// every field keeps the server's default.
	"elicitation-sep1034-client-defaults": func(r *runner) error {
		return r.call("test_client_elicitation_defaults", nil,
			map[string]any{"*": map[string]any{"action": "accept"}})
	},

	// Multi round-trip: four separate calls, as four commands.
	"sep-2322-client-request-state": func(r *runner) error {
		confirm := map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirmed": true}}}
		var steps []func() error
		for _, tool := range []string{"test_mrtr_echo_state", "test_mrtr_no_state", "test_mrtr_unrelated", "test_mrtr_no_result_type"} {
			steps = append(steps, func() error { return r.call(tool, nil, confirm) })
		}
		return all(steps...)
	},

	// Every verb once, on the first item of each list.
	"http-standard-headers": func(r *runner) error {
		return all(
			func() error {
				l, err := r.list("tools")
				if err != nil || len(l.Tools) == 0 {
					return err
				}
				return r.call(l.Tools[0].Name, nil, nil)
			},
			func() error {
				l, err := r.list("resources")
				if err != nil || len(l.Resources) == 0 {
					return err
				}
				_, err = r.mcpcli(nil, "read", l.Resources[0].URI, "-o", "json")
				return err
			},
			func() error {
				l, err := r.list("prompts")
				if err != nil || len(l.Prompts) == 0 {
					return err
				}
				_, err = r.mcpcli(nil, "prompt", l.Prompts[0].Name, "-o", "json")
				return err
			},
		)
	},

	// The calls the suite asks for, with its arguments as --args.
	"http-custom-headers": func(r *runner) error {
		calls, err := r.toolCalls()
		if err != nil {
			return err
		}
		if _, err := r.list("tools"); err != nil {
			return err
		}
		var steps []func() error
		for _, c := range calls {
			steps = append(steps, func() error { return r.call(c.Name, c.Arguments, nil) })
		}
		return all(steps...)
	},

	// mcpcli must leave out the tools with invalid x-mcp-header annotations;
	// call every tool it does list.
	"http-invalid-tool-headers": func(r *runner) error {
		l, err := r.list("tools")
		if err != nil {
			return err
		}
		var steps []func() error
		for _, t := range l.Tools {
			steps = append(steps, func() error { return r.call(t.Name, json.RawMessage(`{"region": "us-west1"}`), nil) })
		}
		return all(steps...)
	},

	// Hand the focal tool's inputSchema, exactly as `tools -o json` printed
	// it, back to the echo tool.
	"json-schema-2020-12-preservation": func(r *runner) error {
		l, err := r.list("tools")
		if err != nil {
			return err
		}
		for _, t := range l.Tools {
			if t.Name == "json_schema_2020_12_tool" {
				args := append(append([]byte(`{"schema": `), t.InputSchema...), '}')
				return r.call("json_schema_echo", args, nil)
			}
		}
		return fmt.Errorf("mcpcli tools did not list json_schema_2020_12_tool")
	},
}

func init() {
	for _, name := range authScenarios {
		scenarios[name] = signInAndCall
	}
}

// signInAndCall plays an auth scenario the way a person would: list the
// tools, then call the one the scenario serves, each command signing in
// when the server asks (the first with a 401, the call perhaps with a 403
// insufficient_scope). The person's browser is conformance/browser, which
// follows the authorization server's redirect back to mcpcli's loopback
// callback; the sign-in between the two commands is kept in the
// scenario's own state directory. Scenarios that expect mcpcli to refuse
// (a wrong iss, a resource mismatch…) let these commands fail.
func signInAndCall(r *runner) error {
	r.signIn()
	return all(
		func() error { _, err := r.list("tools"); return err },
		func() error { return r.call("test-tool", nil, nil) },
	)
}

// cimdURL is the client ID metadata document the suite's auth/basic-cimd
// expects as the client ID (it does not resolve; the suite's
// authorization server takes it as it is).
const cimdURL = "https://conformance-test.local/client-metadata.json"

// signIn sets what mcpcli needs to sign in, all through its ordinary
// flags and environment:
//
//   - --open-urls: with --answers, open the sign-in URL with $BROWSER
//     instead of only printing it;
//   - BROWSER: conformance/browser;
//   - XDG_STATE_HOME: the scenario's own directory, and
//     MCPCLI_TOKEN_STORE=file, so that tokens are kept in a file there,
//     never in the keyring of whoever runs the suite (and
//     DBUS_SESSION_BUS_ADDRESS is dropped for mcpcli releases that look
//     for a keyring regardless);
//   - auth/basic-cimd: --client-metadata-url, the suite's document URL;
//   - a context with client_id (auth/pre-registration): --client-id, and
//     the secret in MCPCLI_CLIENT_SECRET, never on the command line.
func (r *runner) signIn() {
	r.flags = []string{"--open-urls"}
	env := make([]string, 0, len(os.Environ())+5)
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "BROWSER", "XDG_STATE_HOME", "DBUS_SESSION_BUS_ADDRESS", "MCPCLI_TOKEN_STORE", "MCPCLI_CLIENT_SECRET":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "BROWSER="+r.browser, "XDG_STATE_HOME="+filepath.Join(r.dir, "state"), "MCPCLI_TOKEN_STORE=file")
	if r.env.Scenario == "auth/basic-cimd" {
		r.flags = append(r.flags, "--client-metadata-url", cimdURL)
	}
	var id, secret string
	if raw, ok := r.env.Context["client_id"]; ok && json.Unmarshal(raw, &id) == nil && id != "" {
		r.flags = append(r.flags, "--client-id", id)
		if raw, ok := r.env.Context["client_secret"]; ok && json.Unmarshal(raw, &secret) == nil && secret != "" {
			env = append(env, "MCPCLI_CLIENT_SECRET="+secret)
		}
	}
	r.environ = env
}

// authScenarios are the suite's auth/* client scenarios at 2025-11-25 and
// 2026-07-28.
var authScenarios = []string{
	"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
	"auth/basic-cimd",
	"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported",
	"auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit",
	"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
	"auth/pre-registration",
	"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
	"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
	"auth/authorization-server-migration",
	"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing",
	"auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized",
	"auth/metadata-issuer-mismatch",
}

func justList(r *runner) error {
	_, err := r.list("tools")
	return err
}

func discoverAndList(r *runner) error {
	return all(
		func() error {
			out, err := r.mcpcli(nil, "discover", "-o", "json")
			if err == nil && !strings.Contains(string(out), `"protocolVersion"`) {
				err = fmt.Errorf("mcpcli discover -o json printed no protocolVersion")
			}
			return err
		},
		func() error { return justList(r) },
	)
}
