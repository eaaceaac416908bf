package demoserver

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// stateBox seals the demo's requestState: an HMAC-SHA256-protected JSON
// payload with an expiry, bound to the request it was issued for (method,
// name and a digest of the arguments), as the spec's server rules ask.
type stateBox struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

type statePayload struct {
	Bind string          `json:"b"` // method + name + args digest
	Step int             `json:"s"`
	Exp  int64           `json:"e"` // unix seconds
	Data json.RawMessage `json:"d,omitempty"`
}

var errBadState = errors.New("requestState failed verification (tampered with, expired, or issued for another request); start the request again without it")

func (b *stateBox) seal(bind string, step int, data any) (string, error) {
	p := statePayload{Bind: bind, Step: step, Exp: b.now().Add(b.ttl).Unix()}
	if data != nil {
		raw, err := json.Marshal(data)
		if err != nil {
			return "", err
		}
		p.Data = raw
	}
	body, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	return enc.EncodeToString(body) + "." + enc.EncodeToString(b.mac(body)), nil
}

func (b *stateBox) open(state, bind string, data any) (int, error) {
	enc := base64.RawURLEncoding
	bodyPart, macPart, ok := strings.Cut(state, ".")
	if !ok {
		return 0, errBadState
	}
	body, err1 := enc.DecodeString(bodyPart)
	mac, err2 := enc.DecodeString(macPart)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, b.mac(body)) {
		return 0, errBadState
	}
	var p statePayload
	if json.Unmarshal(body, &p) != nil || p.Bind != bind || b.now().Unix() > p.Exp {
		return 0, errBadState
	}
	if data != nil && len(p.Data) > 0 {
		if json.Unmarshal(p.Data, data) != nil {
			return 0, errBadState
		}
	}
	return p.Step, nil
}

func (b *stateBox) mac(body []byte) []byte {
	m := hmac.New(sha256.New, b.key)
	m.Write(body)
	return m.Sum(nil)
}

// binding identifies a request for state: method, name, and a digest of the
// arguments in canonical form.
func binding(method, name string, args json.RawMessage) string {
	var v any
	_ = json.Unmarshal(args, &v)
	canon, _ := json.Marshal(v)
	sum := sha256.Sum256(canon)
	return method + " " + name + " " + base64.RawURLEncoding.EncodeToString(sum[:12])
}
