package flow_test

import (
	"context"
	"testing"

	"github.com/mcpcli/mcpcli/flow"
)

// The cost of a flow over the same calls: the wizard's two rounds
// answered by a plain answerer, then replayed from a flow file and
// checked. Compare the two ns/op (issue 20 asks for at most 1.3x).
func BenchmarkWizardPlain(b *testing.B) {
	c := connect(b, wizard(variant{}))
	c.sw.set(acceptWizard)
	for b.Loop() {
		if _, err := c.s.CallTool(context.Background(), "create", map[string]any{"owner": "octo"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWizardFlow(b *testing.B) {
	c := connect(b, wizard(variant{}))
	f := benchFlow(b, c)
	for b.Loop() {
		runs := replay(b, c, f, nil)
		if ms := flow.Check(f, runs); len(ms) > 0 {
			b.Fatal(ms)
		}
	}
}

func benchFlow(b *testing.B, c *conn) *flow.File {
	b.Helper()
	run := c.do(b, flow.Record(createReq, acceptWizard), createReq)
	f, err := flow.FromRecording("bench.flow", flow.Server{}, false, []flow.Run{run})
	if err != nil {
		b.Fatal(err)
	}
	return f
}
