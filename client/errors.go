package client

import (
	"fmt"
)

// ProtocolError is a server breaking the protocol: the request cannot go on.
type ProtocolError struct {
	Server string
	Detail string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("server %s %s", quoteName(e.Server), e.Detail)
}

// RoundsError is a request that went past one of the loop's bounds.
type RoundsError struct {
	Server    string
	Rounds    int
	StateOnly bool // the bound on rounds carrying only requestState
}

func (e *RoundsError) Error() string {
	if e.StateOnly {
		return fmt.Sprintf("server %s answered %d times in a row with only requestState and no input requests; giving up (it may be overloaded: try again later)",
			quoteName(e.Server), e.Rounds)
	}
	return fmt.Sprintf("server %s still asked for input after %d rounds; giving up (raise --max-rounds if that is expected)",
		quoteName(e.Server), e.Rounds)
}

func quoteName(s string) string { return fmt.Sprintf("%q", s) }
