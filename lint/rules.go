// Package lint checks every ask a server makes against the MCP spec: the
// elicitations, sampling and roots requests in a 2026-07-28 server's
// input_required results, and a 2025-11-25 server's own elicitation/create
// requests and -32042 errors.
//
// A Linter watches a session's wire (Observe is a transport.Observer), so
// it works under any command, a session or a test run alike, and sees what
// the client refuses before any answerer does: an ask for a mode the
// client did not declare, input_required on a list, a duplicate key.
// Each Finding names its rule, its severity (error where the spec says
// MUST, warning where it says SHOULD or where mcpcli advises), the spec
// section, and where it happened. Text, JSON and SARIF 2.1.0 write them.
package lint

// Severity is how bad a finding is.
type Severity string

// The severities.
const (
	Error   Severity = "error"   // the spec says MUST (or MUST NOT)
	Warning Severity = "warning" // the spec says SHOULD, or mcpcli advises
)

// Rule is one check.
type Rule struct {
	ID       string
	Severity Severity
	// Spec is the section it comes from: a page of the spec and an anchor,
	// "2026-07-28/client/elicitation#requested-schema".
	Spec string
	// Says is the rule in a line, for SARIF and --help.
	Says string
}

// URL is the rule's spec section on modelcontextprotocol.io.
func (r Rule) URL() string { return "https://modelcontextprotocol.io/specification/" + r.Spec }

// The rules' IDs.
const (
	FormSchema           = "form-schema"
	RequiredNoProperty   = "required-without-property"
	DefaultType          = "default-type"
	DefaultInvalid       = "default-invalid"
	EnumNames            = "enum-names-length"
	SecretInForm         = "secret-in-form"
	URLInForm            = "url-in-form"
	EmptyMessage         = "empty-message"
	BadMode              = "mode-invalid"
	URLInvalid           = "url-invalid"
	URLScheme            = "url-scheme"
	URLNotHTTPS          = "url-not-https"
	URLSensitive         = "url-sensitive"
	URLNoElicitationID   = "url-missing-elicitation-id"
	Undeclared           = "undeclared-capability"
	UnsupportedMethod    = "input-required-unsupported-method"
	EmptyInputRequired   = "input-required-empty"
	UnknownInputRequest  = "input-request-unknown"
	DuplicateKey         = "input-request-duplicate-key"
	KeySchemaChanged     = "key-schema-changed"
	TooManyRounds        = "too-many-rounds"
	LargeRequestState    = "large-request-state"
	ServerRequestOnMRTR  = "server-request-on-modern"
	URLRequiredNoElicits = "url-required-empty"
)

const (
	elicit26 = "2026-07-28/client/elicitation"
	elicit25 = "2025-11-25/client/elicitation"
	mrtr     = "2026-07-28/basic/patterns/mrtr"
)

// Rules are every check lint makes, in the order they are listed.
var Rules = []Rule{
	{FormSchema, Error, elicit26 + "#requested-schema", "A form's requestedSchema is a flat object (type object, with properties) of primitive fields: string (formats email, uri, date, date-time), number, integer, boolean, or a single- or multi-select enum of strings; no nesting, no $ref, no arrays of anything but enum values."},
	{RequiredNoProperty, Error, elicit26 + "#requested-schema", "Every name in required is a property of the form: otherwise no answer can be accepted."},
	{DefaultType, Error, elicit26 + "#requested-schema", "A field's default has the field's type (a string for a string or enum, a number, a boolean, a list of strings for a multi-select)."},
	{DefaultInvalid, Warning, elicit26 + "#requested-schema", "A field's default fits the field (its bounds, its choices, its format): clients SHOULD pre-populate forms with defaults, and one that does not fit cannot be sent."},
	{EnumNames, Warning, "2026-07-28/schema#legacytitledenumschema", "enum and enumNames have the same length, one name for each value (better: use oneOf with const and title)."},
	{SecretInForm, Error, elicit26 + "#form-mode-security", "Servers MUST NOT request sensitive information (passwords, API keys, tokens, payment credentials) via form mode; such interactions MUST use URL mode."},
	{URLInForm, Warning, elicit26 + "#safe-url-handling", "Servers SHOULD NOT include URLs intended to be clickable in any field of a form mode elicitation request."},
	{EmptyMessage, Error, elicit26 + "#elicitation-requests", "All elicitation requests MUST include a message: a human-readable explanation of why the interaction is needed."},
	{BadMode, Error, elicit26 + "#elicitation-requests", "mode is \"form\" (or omitted, for form) or \"url\"."},
	{URLInvalid, Error, elicit26 + "#url-mode-elicitation-requests", "A URL mode elicitation request's url parameter MUST contain a valid URL."},
	{URLScheme, Warning, elicit26 + "#safe-url-handling", "A URL mode elicitation's URL is an http(s) page: clients that handle URLs safely open nothing else."},
	{URLNotHTTPS, Warning, elicit26 + "#safe-url-handling", "Servers SHOULD use HTTPS URLs for non-development environments (plain http is tolerated on loopback only)."},
	{URLSensitive, Error, elicit26 + "#safe-url-handling", "Servers MUST NOT include sensitive information about the end-user (credentials, personally identifiable information) in the URL, and MUST NOT provide a pre-authenticated URL."},
	{URLNoElicitationID, Error, elicit25 + "#url-mode-elicitation-requests", "At 2025-11-25, URL mode elicitation requests (and the elicitations of a -32042 error) MUST include an elicitationId."},
	{Undeclared, Error, mrtr + "#server-requirements-basic-workflow", "Servers MUST NOT send input requests the client has not declared support for in its capabilities, nor elicitation requests in a mode the client did not declare."},
	{UnsupportedMethod, Error, mrtr + "#supported-requests", "Servers MUST NOT send an InputRequiredResult on any request but tools/call, prompts/get and resources/read."},
	{EmptyInputRequired, Error, mrtr + "#server-requirements-basic-workflow", "Servers MUST include at least one of inputRequests or requestState in every InputRequiredResult."},
	{UnknownInputRequest, Error, mrtr + "#server-requirements-basic-workflow", "inputRequests values MUST be an elicitation/create, sampling/createMessage or roots/list request."},
	{DuplicateKey, Error, mrtr + "#server-requirements-basic-workflow", "inputRequests keys MUST be unique within the scope of the request."},
	{KeySchemaChanged, Warning, mrtr + "#inputrequests", "A key asked again in a later round of the same request asks the same thing: a different schema under the same key breaks answers kept by key."},
	{TooManyRounds, Warning, mrtr + "#server-requirements-basic-workflow", "A request takes no more rounds than the stated bound (mcpcli's default is 10): a server that keeps asking looks stuck."},
	{LargeRequestState, Warning, mrtr + "#inputrequiredresult", "requestState stays small (8 KiB by default): the client echoes it on every retry, and some SDKs refuse longer ones."},
	{ServerRequestOnMRTR, Error, mrtr + "#multi-round-trip-requests", "At 2026-07-28 servers MUST send server-to-client requests (elicitation, sampling, roots) as input requests in an InputRequiredResult, never as JSON-RPC requests of their own."},
	{URLRequiredNoElicits, Error, elicit25 + "#url-elicitation-required-error", "A -32042 URLElicitationRequiredError MUST list the elicitations required, each a URL mode elicitation with an elicitationId."},
}

// rule returns the rule with id; it panics on a typo, which tests catch.
func rule(id string) Rule {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	panic("lint: no rule " + id)
}

// DefaultMaxState is the requestState size (bytes) above which lint
// warns. The spec sets no limit, but what it asks servers to protect and
// check (the principal, an expiry, the request's identity, under an HMAC
// or AEAD) fits in a few hundred bytes: the demo server's is under 300.
// The client echoes the state on every retry, and SDKs bound what they
// accept: the Rust SDK pmcp (paiml/rust-mcp-sdk, src/types/mrtr.rs,
// MAX_REQUEST_STATE_LEN) refuses a requestState over 8,192 bytes. A state
// past that is a server carrying its data in the state, or about to be
// refused.
const DefaultMaxState = 8192
