package client

// Works around go-sdk v1.8.0: its Client applies every default of a
// 2025-11-25 form's schema to what an accepted answer leaves out, a
// default outside its own enum too, which mcpcli told the person it does
// not send. gosdk_elicit_defaults_test.go shows the go-sdk alone sending
// such a default: when it fails, the go-sdk no longer adds it, and
// keepLeftOut can go.

import "github.com/modelcontextprotocol/go-sdk/mcp"

// keepLeftOut takes back what the go-sdk added to an accepted answer from
// a default mcpcli left out because it does not fit its field (a default
// outside its enum): the person was told it is not sent, and the go-sdk,
// which applies every default of the schema to what is omitted, would
// send it. Defaults that fit stay: the review shows them as sent.
func (la *legacyAnswer) keepLeftOut(res mcp.Result) {
	er, ok := res.(*mcp.ElicitResult)
	if !ok || !la.reached || la.sent == nil || er.Action != Accept || er.Content == nil || la.ask.Form == nil {
		return
	}
	for k := range er.Content {
		if _, answered := la.sent.Content[k]; answered {
			continue
		}
		if f := la.ask.Form.Field(k); f != nil && f.DefaultProblem != "" {
			delete(er.Content, k)
		}
	}
}
