package lint

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/mcpcli/mcpcli/client"
	"github.com/mcpcli/mcpcli/internal/jsonpeek"
	"github.com/mcpcli/mcpcli/internal/lazy"
	"github.com/mcpcli/mcpcli/internal/textsafe"
	"github.com/mcpcli/mcpcli/schema"
	"github.com/mcpcli/mcpcli/transport"
	"github.com/mcpcli/mcpcli/urlmode"
)

// Where is where a finding happened.
type Where struct {
	Server string // the server's name (serverInfo), or Options.Server
	// Method is the client's request the ask came with ("tools/call",
	// "tools/list"...), or, for a server's own request the client was not
	// waiting on, that request's method.
	Method string
	Target string // the tool, prompt or resource URI
	Call   int    // which request of the session, from 1 (0: none)
	Round  int    // from 1; 0 when not about a round
	Key    string // the input request's key
	Field  string // the form field
	// File and Line, when set (a flow file's step), place the finding in a
	// file for SARIF viewers.
	File string
	Line int
}

// String is where, in words: `tools/call "pay", round 1, ask "card", field "number"`.
func (w Where) String() string {
	var parts []string
	if w.Server != "" {
		parts = append(parts, "server "+quote(w.Server))
	}
	if w.Method != "" {
		s := w.Method
		if w.Target != "" {
			s += " " + quote(w.Target)
		}
		parts = append(parts, s)
	}
	if w.Round > 0 {
		parts = append(parts, fmt.Sprintf("round %d", w.Round))
	}
	if w.Key != "" {
		parts = append(parts, "ask "+quote(w.Key))
	}
	if w.Field != "" {
		parts = append(parts, "field "+quote(w.Field))
	}
	return strings.Join(parts, ", ")
}

// quote JSON-quotes a server's string: its controls and bidi marks come
// out escaped.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return string(textsafe.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
}

// Finding is one rule broken, once.
type Finding struct {
	Rule     string
	Severity Severity
	Spec     string // the rule's spec section
	Message  string // what was wrong, in words; server text JSON-quoted
	Where
	// Count is how many times the same finding came (a server asking the
	// same bad thing each round is reported once).
	Count int
}

// Failed reports whether findings fail a run: any error, or with strict
// (--strict) any warning too.
func Failed(findings []Finding, strict bool) bool {
	for _, f := range findings {
		if f.Severity == Error || strict {
			return true
		}
	}
	return false
}

// Options configure a Linter.
type Options struct {
	// Server names the server in findings; empty: the name it gives.
	Server string
	// MaxRounds is the stated bound on the rounds of one request; 0 means
	// client.DefaultMaxRounds.
	MaxRounds int
	// MaxState is the requestState size in bytes above which lint warns;
	// 0 means DefaultMaxState.
	MaxState int
}

// Linter collects findings over a session. It is safe for concurrent
// use: Observe may be called from the transport's goroutines.
type Linter struct {
	opts Options

	mu         sync.Mutex
	server     string // the name the server gave
	protocol   string
	legacyCaps declared             // what initialize declared
	pending    map[jsonrpc.ID]*sent // the client's requests by id
	calls      map[string]*call     // open calls by method and target
	nCalls     int
	inflight   *call // the last multi-round request sent (legacy asks come during it)
	findings   []Finding
	seen       map[string]int // finding key → index in findings
}

type sent struct {
	method, target string
	call           *call
	declared       declared
}

// call is one multi-round request: its rounds so far and what each key
// asked.
type call struct {
	n       int
	method  string
	target  string
	rounds  int
	legacy  int
	asked   map[string]string // key → mode and schema, compacted
	tooMany bool
}

// declared is what the client said it supports on a request.
type declared struct {
	known                      bool
	form, url, sampling, roots bool
}

// New makes a Linter.
func New(o Options) *Linter {
	if o.MaxRounds <= 0 {
		o.MaxRounds = client.DefaultMaxRounds
	}
	if o.MaxState <= 0 {
		o.MaxState = DefaultMaxState
	}
	return &Linter{opts: o, pending: map[jsonrpc.ID]*sent{}, calls: map[string]*call{}, seen: map[string]int{}}
}

// Findings are the findings so far, errors first, then in the order they
// came.
func (l *Linter) Findings() []Finding {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := append([]Finding(nil), l.findings...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity == Error && out[j].Severity != Error })
	return out
}

func (l *Linter) add(id string, at Where, format string, args ...any) {
	r := rule(id)
	if at.Server == "" {
		at.Server = l.serverName()
	}
	f := Finding{Rule: id, Severity: r.Severity, Spec: r.Spec, Message: fmt.Sprintf(format, args...), Where: at, Count: 1}
	k := strings.Join([]string{id, at.Server, at.Method, at.Target, at.Key, at.Field, f.Message}, "\x00")
	if i, ok := l.seen[k]; ok {
		l.findings[i].Count++
		return
	}
	l.seen[k] = len(l.findings)
	l.findings = append(l.findings, f)
}

func (l *Linter) serverName() string {
	if l.opts.Server != "" {
		return l.opts.Server
	}
	return l.server
}

func (l *Linter) modern() bool { return l.protocol >= client.ModernVersion }

// Observe looks at one message of the session: plug it in with
// transport.Transport.Observe (before connecting). It reads the message
// as the transport decoded it (as the go-sdk reads it), not its bytes
// again.
func (l *Linter) Observe(ev transport.Event) {
	if len(ev.Msg) == 0 {
		return
	}
	e := ev.Envelope()
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case ev.Dir == transport.Send && e.Kind == transport.KindRequest:
		l.sent(e)
	case ev.Dir == transport.Recv && e.Kind == transport.KindRequest:
		l.serverRequest(e)
	case ev.Dir == transport.Recv && (e.Kind == transport.KindResult || e.Kind == transport.KindError) && e.ID.IsValid():
		s := l.pending[e.ID]
		if s == nil {
			return
		}
		delete(l.pending, e.ID)
		l.response(s, e)
	}
}

var mrtrMethods = map[string]bool{"tools/call": true, "prompts/get": true, "resources/read": true}

func (l *Linter) sent(e transport.Envelope) {
	var p struct {
		Name           string          `json:"name"`
		URI            string          `json:"uri"`
		InputResponses json.RawMessage `json:"inputResponses"`
		RequestState   *string         `json:"requestState"`
		Meta           struct {
			Protocol string          `json:"io.modelcontextprotocol/protocolVersion"`
			Caps     json.RawMessage `json:"io.modelcontextprotocol/clientCapabilities"`
		} `json:"_meta"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ProtocolVersion string          `json:"protocolVersion"`
	}
	_ = json.Unmarshal(e.Params, &p)
	if p.Meta.Protocol != "" {
		l.protocol = p.Meta.Protocol
	}
	s := &sent{method: e.Method, target: p.Name, declared: l.legacyCaps}
	if p.URI != "" {
		s.target = p.URI
	}
	if e.Method == "initialize" {
		l.legacyCaps = readCaps(p.Capabilities)
		if p.ProtocolVersion != "" {
			l.protocol = p.ProtocolVersion
		}
	}
	if p.Meta.Caps != nil {
		s.declared = readCaps(p.Meta.Caps)
	}
	if mrtrMethods[e.Method] {
		k := e.Method + "\x00" + s.target
		c := l.calls[k]
		if c == nil || (p.InputResponses == nil && p.RequestState == nil) {
			l.nCalls++
			c = &call{n: l.nCalls, method: e.Method, target: s.target, asked: map[string]string{}}
			l.calls[k] = c
		}
		s.call = c
		l.inflight = c
	}
	l.pending[e.ID] = s
}

func readCaps(raw json.RawMessage) declared {
	d := declared{known: raw != nil}
	var c map[string]json.RawMessage
	if json.Unmarshal(raw, &c) != nil {
		return d
	}
	if el, ok := c["elicitation"]; ok {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(el, &m)
		_, d.form = m["form"]
		_, d.url = m["url"]
		if len(m) == 0 || !d.form && !d.url {
			d.form = true // {} means form only
		}
	}
	_, d.sampling = c["sampling"]
	_, d.roots = c["roots"]
	return d
}

func (l *Linter) response(s *sent, e transport.Envelope) {
	at := Where{Method: s.method, Target: s.target}
	if s.call != nil {
		at.Call = s.call.n
	}
	switch {
	case s.method == "initialize" && e.Result != nil:
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
			ServerInfo      struct {
				Name string `json:"name"`
			} `json:"serverInfo"`
		}
		_ = json.Unmarshal(e.Result, &r)
		l.protocol, l.server = r.ProtocolVersion, r.ServerInfo.Name
		return
	case s.method == "server/discover" && e.Result != nil:
		if name, ok := jsonpeek.String(jsonpeek.Get(jsonpeek.Get(jsonpeek.Get(e.Result, "_meta"), "io.modelcontextprotocol/serverInfo"), "name")); ok {
			l.server = name
		}
		return
	case e.Error != nil && e.Error.Code == -32042:
		if s.call != nil {
			s.call.rounds++
			at.Round = s.call.rounds
		}
		l.urlRequired(at, s.declared, e.Error.Data)
		return
	case e.Result == nil:
		if s.call != nil && l.inflight == s.call {
			l.inflight = nil
		}
		return
	}
	rt, _ := jsonpeek.String(jsonpeek.Get(e.Result, "resultType"))
	if rt != "input_required" {
		if s.call != nil && l.inflight == s.call {
			l.inflight = nil // done: a server request from now on is no round of it
		}
		return
	}
	if !mrtrMethods[s.method] {
		l.add(UnsupportedMethod, at, "%s answered with resultType \"input_required\"; only tools/call, prompts/get and resources/read may take rounds", s.method)
		return
	}
	c := s.call
	c.rounds++
	at.Round = c.rounds
	if c.rounds > l.opts.MaxRounds && !c.tooMany {
		c.tooMany = true
		l.add(TooManyRounds, at, "the request took more than %d rounds", l.opts.MaxRounds)
	}
	reqs := jsonpeek.Get(e.Result, "inputRequests")
	state := jsonpeek.Get(e.Result, "requestState")
	stateLen := -1
	if s, ok := jsonpeek.String(state); ok {
		stateLen = len(s)
	}
	if jsonpeek.IsNull(reqs) && stateLen < 0 {
		l.add(EmptyInputRequired, at, "input_required with neither inputRequests nor requestState")
	}
	if stateLen > l.opts.MaxState {
		l.add(LargeRequestState, at, "requestState is %d bytes (the bound is %d); keep the state on the server, or keep only what identifies it", stateLen, l.opts.MaxState)
	}
	keys, values, _ := jsonpeek.Members(reqs)
	seen := map[string]bool{}
	for i, k := range keys {
		ka := at
		ka.Key = k
		if seen[k] {
			l.add(DuplicateKey, ka, "inputRequests has the key %s twice; a JSON reader keeps only one", quote(k))
			continue
		}
		seen[k] = true
		l.inputRequest(ka, s.declared, c, values[i])
	}
}

// inputRequest checks one input request of an InputRequiredResult.
func (l *Linter) inputRequest(at Where, d declared, c *call, raw []byte) {
	method, _ := jsonpeek.String(jsonpeek.Get(raw, "method"))
	params := jsonpeek.Get(raw, "params")
	switch method {
	case "elicitation/create":
		l.ask(at, d, false, params)
		if c != nil {
			l.sameKey(at, c, params)
		}
	case "sampling/createMessage":
		if d.known && !d.sampling {
			l.add(Undeclared, at, "a sampling/createMessage request, but the client did not declare sampling")
		}
	case "roots/list":
		if d.known && !d.roots {
			l.add(Undeclared, at, "a roots/list request, but the client did not declare roots")
		}
	default:
		l.add(UnknownInputRequest, at, "an input request with method %s; the spec allows elicitation/create, sampling/createMessage and roots/list", quote(method))
	}
}

// sameKey warns when a key asked before in the same request asks
// something else.
func (l *Linter) sameKey(at Where, c *call, params []byte) {
	mode, _ := jsonpeek.String(jsonpeek.Get(params, "mode"))
	if mode == "" {
		mode = "form"
	}
	var b bytes.Buffer
	_ = json.Compact(&b, jsonpeek.Get(params, "requestedSchema"))
	sig := mode + " " + b.String()
	if before, ok := c.asked[at.Key]; ok && before != sig {
		l.add(KeySchemaChanged, at, "the key was asked before in this request with another %s", map[bool]string{true: "mode", false: "schema"}[strings.SplitN(before, " ", 2)[0] != mode])
	}
	c.asked[at.Key] = sig
}

// serverRequest checks a request the server sent of its own.
func (l *Linter) serverRequest(e transport.Envelope) {
	switch e.Method {
	case "elicitation/create", "sampling/createMessage", "roots/list":
	default:
		return
	}
	at := Where{Method: e.Method}
	if c := l.inflight; c != nil {
		at.Method, at.Target, at.Call = c.method, c.target, c.n
		c.legacy++
		at.Round = c.legacy
	}
	if l.modern() {
		l.add(ServerRequestOnMRTR, at, "the server sent its own %s request at protocol %s; it belongs in an InputRequiredResult", e.Method, l.protocol)
	}
	switch e.Method {
	case "elicitation/create":
		at.Key = "elicitation"
		l.ask(at, l.legacyCaps, true, e.Params)
	case "sampling/createMessage":
		if l.legacyCaps.known && !l.legacyCaps.sampling {
			l.add(Undeclared, at, "a sampling/createMessage request, but the client did not declare sampling")
		}
	case "roots/list":
		if l.legacyCaps.known && !l.legacyCaps.roots {
			l.add(Undeclared, at, "a roots/list request, but the client did not declare roots")
		}
	}
}

// urlRequired checks a -32042 error's elicitations.
func (l *Linter) urlRequired(at Where, d declared, data json.RawMessage) {
	var list []json.RawMessage
	_ = jsonpeek.Array(jsonpeek.Get(data, "elicitations"), func(v []byte) bool {
		list = append(list, v)
		return true
	})
	if len(list) == 0 {
		l.add(URLRequiredNoElicits, at, "a -32042 error lists no elicitations")
		return
	}
	for i, raw := range list {
		ka := at
		ka.Key = "elicitation"
		if i > 0 {
			ka.Key = fmt.Sprintf("elicitation-%d", i+1)
		}
		if mode, _ := jsonpeek.String(jsonpeek.Get(raw, "mode")); mode != "url" {
			l.add(URLRequiredNoElicits, ka, "a -32042 error lists a %s elicitation; it lists URL elicitations only", quote(mode))
			continue
		}
		l.ask(ka, d, true, raw)
	}
}

// elicit is what lint reads of elicitation/create params.
type elicit struct {
	Mode            *string         `json:"mode"`
	Message         *string         `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             *string         `json:"url"`
	ElicitationID   *string         `json:"elicitationId"`
}

// ask checks one elicitation/create: legacy for a 2025-11-25 server's own
// request (or a -32042 error's).
func (l *Linter) ask(at Where, d declared, legacy bool, params []byte) {
	var p elicit
	_ = json.Unmarshal(params, &p)
	mode := "form"
	if p.Mode != nil {
		mode = *p.Mode
	}
	if mode != "form" && mode != "url" {
		l.add(BadMode, at, "mode is %s; it is \"form\" (or left out) or \"url\"", quote(mode))
		return
	}
	if d.known && (mode == "form" && !d.form || mode == "url" && !d.url) {
		l.add(Undeclared, at, "a %s mode elicitation, but the client did not declare %s mode", mode, mode)
	}
	if p.Message == nil || strings.TrimSpace(*p.Message) == "" {
		l.add(EmptyMessage, at, "the elicitation has no message; say why the input is needed")
	}
	if mode == "url" {
		l.urlAsk(at, legacy, p)
		return
	}
	l.form(at, p)
}

// clickable finds a link a terminal would make clickable (compiled when a
// lint first reads a text, not at every start of mcpcli).
var clickable = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`(?i)\bhttps?://`) }}

func (l *Linter) urlAsk(at Where, legacy bool, p elicit) {
	if legacy && !l.modern() && (p.ElicitationID == nil || *p.ElicitationID == "") {
		l.add(URLNoElicitationID, at, "a URL mode elicitation without an elicitationId (protocol %s)", or(l.protocol, "2025-11-25"))
	}
	if p.URL == nil || strings.TrimSpace(*p.URL) == "" {
		l.add(URLInvalid, at, "a URL mode elicitation without a url")
		return
	}
	raw := *p.URL
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") {
		l.add(URLInvalid, at, "the url %s is not a valid absolute URL", quote(clip(raw)))
		return
	}
	an := urlmode.Analyze(raw)
	switch {
	case an.Scheme != "http" && an.Scheme != "https":
		l.add(URLScheme, at, "the url is a %s: link; clients open http and https only", quote(strings.ToLower(u.Scheme)))
		return
	case an.Refused != "":
		l.add(URLInvalid, at, "the url %s cannot be opened safely: %s", quote(clip(raw)), an.Refused)
		return
	case an.Scheme == "http" && !an.Loopback:
		l.add(URLNotHTTPS, at, "plain http to %s; use https outside loopback", quote(an.Host))
	}
	if u.User != nil {
		if _, pw := u.User.Password(); pw {
			l.add(URLSensitive, at, "the url carries a user name and a password before the host")
		} else {
			l.add(URLSensitive, at, "the url carries a user name before the host")
		}
	}
	for name, vals := range u.Query() {
		switch {
		case schema.LooksSecretName(name):
			l.add(URLSensitive, at, "the url's query parameter %s looks like a credential; a URL that signs the user in can be replayed by whoever sees it", quote(name))
		default:
			for _, v := range vals {
				if looksEmail(v) {
					l.add(URLSensitive, at, "the url's query parameter %s holds an email address, personal information", quote(name))
					break
				}
			}
		}
	}
}

var emailRE = lazy.Value[*regexp.Regexp]{New: func() *regexp.Regexp { return regexp.MustCompile(`^[^@\s/]+@[^@\s/]+\.[^@\s/]+$`) }}

func looksEmail(s string) bool { return emailRE.Get().MatchString(s) }

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}

// form checks a form mode ask's schema.
func (l *Linter) form(at Where, p elicit) {
	if p.Message != nil && clickable.Get().MatchString(*p.Message) {
		l.add(URLInForm, at, "the form's message has a link; a form is no place for URLs to click (use URL mode)")
	}
	raw := bytes.TrimSpace(p.RequestedSchema)
	if jsonpeek.IsNull(raw) {
		l.add(FormSchema, at, "a form mode elicitation without a requestedSchema")
		return
	}
	typ := jsonpeek.Get(raw, "type")
	if s, _ := jsonpeek.String(typ); s != "object" {
		l.add(FormSchema, at, "requestedSchema's type is %s; it is \"object\"", or(string(typ), "missing"))
	}
	props := jsonpeek.Get(raw, "properties")
	if props == nil {
		l.add(FormSchema, at, "requestedSchema has no properties")
	}
	names, values, _ := jsonpeek.Members(props)
	noProp := map[string]bool{}
	_ = jsonpeek.Array(jsonpeek.Get(raw, "required"), func(v []byte) bool {
		if n, ok := jsonpeek.String(v); ok && !contains(names, n) {
			noProp[n] = true
		}
		return true
	})
	for n := range noProp {
		fa := at
		fa.Field = n
		l.add(RequiredNoProperty, fa, "%s is required but is not a property of the form: no answer can be accepted", quote(n))
	}
	form, err := schema.Parse(raw)
	if err != nil {
		l.add(FormSchema, at, "requestedSchema is not a JSON object: %v", err)
		return
	}
	for _, pr := range form.Problems {
		if noProp[pr.Field] {
			continue
		}
		fa := at
		fa.Field = pr.Field
		l.add(FormSchema, fa, "%s", pr.Reason)
	}
	for i, name := range names {
		fa := at
		fa.Field = name
		l.field(fa, form.Field(name), values[i])
	}
}

// field checks one property.
func (l *Linter) field(at Where, f *schema.Field, raw []byte) {
	enum, names := jsonpeek.Get(raw, "enum"), jsonpeek.Get(raw, "enumNames")
	if items := jsonpeek.Get(raw, "items"); enum == nil && items != nil {
		enum, names = jsonpeek.Get(items, "enum"), jsonpeek.Get(items, "enumNames")
	}
	if names != nil {
		ne, nn := count(enum), count(names)
		if ne != nn {
			l.add(EnumNames, at, "enum has %d values and enumNames %d names", ne, nn)
		}
	}
	if f == nil {
		return // the schema problem was reported
	}
	for _, t := range []string{f.Title, f.Description} {
		if clickable.Get().MatchString(t) {
			l.add(URLInForm, at, "the field's title or description has a link; a form is no place for URLs to click (use URL mode)")
			break
		}
	}
	if f.Secret {
		l.add(SecretInForm, at, "the form asks for what looks like a secret (%s); secrets go through URL mode, never a form", quote(f.Label()))
	}
	def := jsonpeek.Get(raw, "default")
	if jsonpeek.IsNull(def) {
		return
	}
	if want := defaultType(f.Kind, def); want != "" {
		l.add(DefaultType, at, "the default %s is not %s", quote(clip(string(def))), want)
		return
	}
	if f.DefaultProblem != "" {
		l.add(DefaultInvalid, at, "%s", f.DefaultProblem)
	}
}

// defaultType says what a default of kind k must be, when def is not.
func defaultType(k schema.Kind, def []byte) string {
	var v any
	if json.Unmarshal(def, &v) != nil {
		return "JSON"
	}
	switch k {
	case schema.String, schema.Select:
		if _, ok := v.(string); !ok {
			return "a string"
		}
	case schema.Number, schema.Integer:
		if _, ok := v.(float64); !ok {
			return "a number"
		}
	case schema.Boolean:
		if _, ok := v.(bool); !ok {
			return "true or false"
		}
	case schema.MultiSelect:
		list, ok := v.([]any)
		if !ok {
			return "a list of strings"
		}
		for _, x := range list {
			if _, ok := x.(string); !ok {
				return "a list of strings"
			}
		}
	}
	return ""
}

func count(arr []byte) int {
	n := 0
	_ = jsonpeek.Array(arr, func([]byte) bool { n++; return true })
	return n
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
