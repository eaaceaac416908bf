package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// lintServerMain is the "lintserver" command of the CLI scripts: a
// hand-written stdio server that plants one violation a tool, for lint to
// find through the command (lint's own hostile server,
// lint/hostile_test.go, plants the same in process). Its first argument
// picks how it speaks:
//
//   - none: 2026-07-28, a tool for each violation in a tool call's asks,
//     and "push", which sends an elicitation/create request of its own;
//   - "legacy": 2025-11-25 (the initialize handshake), with "urlnoid",
//     whose own URL mode elicitation/create has no elicitationId, and
//     "needurl", whose -32042 error lists no elicitations;
//   - "lists": 2026-07-28, answering tools/list with input_required.
func lintServerMain() {
	mode := ""
	if len(os.Args) > 1 {
		mode = os.Args[1]
	}
	if mode != "" && mode != "legacy" && mode != "lists" {
		fmt.Fprintln(os.Stderr, "usage: lintserver [legacy|lists]")
		os.Exit(2)
	}
	form := func(key, message, schema string) string {
		return fmt.Sprintf(`%q:{"method":"elicitation/create","params":{"mode":"form","message":%q,"requestedSchema":%s}}`, key, message, schema)
	}
	url := func(key, message, u string) string {
		return fmt.Sprintf(`%q:{"method":"elicitation/create","params":{"mode":"url","message":%q,"url":%q,"elicitationId":"e1"}}`, key, message, u)
	}
	ir := func(members, state string) string {
		s := `{"resultType":"input_required","inputRequests":{` + members + `}`
		if state != "" {
			b, _ := json.Marshal(state)
			s += `,"requestState":` + string(b)
		}
		return s + "}"
	}
	ok := `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
	plants := [][2]string{
		{"nested", ir(form("k", "Where do you live?", `{"type":"object","properties":{"address":{"type":"object","properties":{"street":{"type":"string"}}}}}`), "")},
		{"ghost", ir(form("k", "Confirm?", `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok","ghost"]}`), "")},
		{"defaulttype", ir(form("k", "How many?", `{"type":"object","properties":{"n":{"type":"integer","default":"ten"}}}`), "")},
		{"defaultrange", ir(form("k", "How many?", `{"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":5,"default":9}}}`), "")},
		{"enumnames", ir(form("k", "Which plan?", `{"type":"object","properties":{"plan":{"type":"string","enum":["free","pro","team"],"enumNames":["Free","Pro"]}}}`), "")},
		{"password", ir(form("k", "Sign in to continue.", `{"type":"object","properties":{"user":{"type":"string"},"password":{"type":"string"}},"required":["user","password"]}`), "")},
		{"link", ir(form("k", "Accept the terms at https://example.com/terms first.", ok), "")},
		{"nomessage", ir(form("k", " ", ok), "")},
		{"badmode", ir(`"k":{"method":"elicitation/create","params":{"mode":"sms","message":"Text me"}}`, "")},
		{"badurl", ir(url("k", "Open this.", "not a url"), "")},
		{"jsurl", ir(url("k", "Open this.", "javascript:alert(1)"), "")},
		{"http", ir(url("k", "Connect your account.", "http://example.com/connect"), "")},
		{"userinfo", ir(url("k", "Connect your account.", "https://ada:hunter2@example.com/connect"), "")},
		{"sampling", ir(`"draft":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Hi"}}],"maxTokens":10}}`, "")},
		{"empty", `{"resultType":"input_required"}`},
		{"ping", ir(`"k":{"method":"ping","params":{}}`, "")},
		{"dupkey", ir(form("k", "First?", ok)+","+form("k", "Second?", ok), "")},
		{"bigstate", ir(form("k", "Go on?", ok), strings.Repeat("s", 8193))},
	}
	byName := map[string]string{}
	var tools []string
	switch mode {
	case "":
		for _, p := range plants {
			byName[p[0]] = p[1]
			tools = append(tools, p[0])
		}
		tools = append(tools, "rekey", "loop", "push")
	case "legacy":
		tools = []string{"urlnoid", "needurl"}
	case "lists":
		tools = []string{"fine"}
	}
	done := `{"resultType":"complete","content":[{"type":"text","text":"done"}]}`
	if mode == "legacy" {
		done = `{"content":[{"type":"text","text":"done"}]}` // no resultType before 2026-07-28
	}
	// waiting are the tools/call ids waiting on the client's answer to
	// the server's own request, by that request's id.
	waiting := map[string]json.RawMessage{}
	nextID := 0
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name           string          `json:"name"`
				InputResponses json.RawMessage `json:"inputResponses"`
				RequestState   string          `json:"requestState"`
			} `json:"params"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil || m.ID == nil {
			continue
		}
		result := func(id json.RawMessage, r string) { fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":%s}`+"\n", id, r) }
		fail := func(code int, message, data string) {
			if data != "" {
				data = `,"data":` + data
			}
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%q%s}}`+"\n", m.ID, code, message, data)
		}
		// ask sends a request of the server's own, and answers the
		// tools/call once the client has answered it.
		ask := func(method, params string) {
			nextID++
			id := fmt.Sprintf(`"srv-%d"`, nextID)
			waiting[id] = m.ID
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`+"\n", id, method, params)
		}
		if m.Method == "" { // the client's answer to a request of the server's
			if call, ok := waiting[string(m.ID)]; ok {
				delete(waiting, string(m.ID))
				result(call, done)
			}
			continue
		}
		switch m.Method {
		case "initialize":
			if mode != "legacy" {
				fail(-32600, "initialize is not supported", "")
				continue
			}
			result(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile-legacy","version":"1"}}`)
		case "server/discover":
			if mode == "legacy" {
				fail(-32601, "Method not found", "")
				continue
			}
			result(m.ID, `{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"hostile","version":"1"}}}`)
		case "tools/list":
			if mode == "lists" {
				result(m.ID, ir(form("k", "Which tools?", ok), ""))
				continue
			}
			var list []string
			for _, t := range tools {
				list = append(list, fmt.Sprintf(`{"name":%q,"inputSchema":{"type":"object"}}`, t))
			}
			result(m.ID, `{"tools":[`+strings.Join(list, ",")+`]}`)
		case "tools/call":
			retry := m.Params.InputResponses != nil || m.Params.RequestState != ""
			switch {
			case m.Params.Name == "rekey" && m.Params.RequestState == "":
				result(m.ID, ir(form("k", "Name?", `{"type":"object","properties":{"name":{"type":"string"}}}`), "s1"))
			case m.Params.Name == "rekey" && m.Params.RequestState == "s1":
				result(m.ID, ir(form("k", "Name?", `{"type":"object","properties":{"name":{"type":"integer"}}}`), "s2"))
			case m.Params.Name == "loop":
				result(m.ID, ir(form("k", "Again?", ok), "again"))
			case m.Params.Name == "push":
				// A 2025-11-25 habit on a 2026-07-28 connection.
				ask("elicitation/create", `{"mode":"form","message":"Old style","requestedSchema":`+ok+`}`)
			case m.Params.Name == "urlnoid":
				ask("elicitation/create", `{"mode":"url","message":"Connect your account.","url":"https://example.com/connect"}`)
			case m.Params.Name == "needurl":
				fail(-32042, "URL elicitation required", `{"elicitations":[]}`)
			case retry || byName[m.Params.Name] == "":
				result(m.ID, done)
			default:
				result(m.ID, byName[m.Params.Name])
			}
		default:
			result(m.ID, `{}`)
		}
	}
}
