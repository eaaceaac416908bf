package render

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An ask with Given (what was answered the last time the request was
// sent) starts from those values, over the schema's defaults; the person
// still reviews and sends them.
func TestFormStartsFromGivenAnswers(t *testing.T) {
	schema := `{"type":"object","properties":{"name":{"type":"string","title":"Name","default":"Ada"},"size":{"type":"string","title":"Size","enum":["S","M","L"]},"gift":{"type":"boolean","title":"Gift"}}}`
	r := roundOf([3]string{"order", "Your order?", schema})
	r.Asks[0].Given = map[string]any{"name": "Grace", "size": "L", "gift": true, "nope": 1}
	u := startTUI(t, r, nil)
	u.WaitFor("Name", "Grace")
	u.Press(kCtrlS)
	u.WaitFor("Review", "Grace")
	u.Press(kEnter)
	if diff := cmp.Diff(map[string]any{"name": "Grace", "size": "L", "gift": true}, u.Result()["order"].Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
}
