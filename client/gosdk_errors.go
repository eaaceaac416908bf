package client

import "strings"

// Works around go-sdk v1.8.0: two of its errors say what happened only in
// their text, and mcpcli reads that text. gosdk_errors_test.go pins both
// texts against the go-sdk itself: when it fails, the go-sdk changed its
// words (or gave the error a type), and these readers must follow.

// brokenStream reports whether err is the go-sdk's answer to a response
// stream that ended (cleanly or not) before the response arrived, without
// a way to resume it. That is the only signal the SDK gives; the
// transport's tests pin it against a real server.
func brokenStream(err error) bool {
	return strings.Contains(err.Error(), "request terminated without response")
}

// unsupportedInputRequest reports whether err is the go-sdk's refusal of
// an interim result with an input request of a method it does not know
// (it cannot decode the result at all), and the part that names it.
func unsupportedInputRequest(err error) (string, bool) {
	msg := err.Error()
	i := strings.Index(msg, "unsupported InputRequest method")
	if i < 0 {
		return "", false
	}
	return msg[i:], true
}
