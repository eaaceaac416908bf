package cast

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// Event is one event of a cast.
type Event struct {
	Time float64 // seconds from the start
	Code string  // Output, Input, Resize, Marker, or a code of a later format
	Data string
}

// Size is the "COLSxROWS" of a resize event.
func (e Event) Size() (cols, rows int, err error) {
	c, r, ok := strings.Cut(e.Data, "x")
	if ok {
		cols, err = strconv.Atoi(c)
		if err == nil {
			rows, err = strconv.Atoi(r)
		}
	}
	if !ok || err != nil || cols <= 0 || rows <= 0 {
		return 0, 0, fmt.Errorf("resize %q is not COLSxROWS", e.Data)
	}
	return cols, rows, nil
}

// Reader reads a cast a line at a time, checking it as it goes: the
// header, each event's shape, and times that never decrease.
type Reader struct {
	Header Header

	sc   *bufio.Scanner
	line int
	last float64
}

// maxReadLine bounds one line read: far above any line the Writer writes.
const maxReadLine = 16 << 20

// NewReader reads and checks the header of the cast r.
func NewReader(r io.Reader) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxReadLine)
	cr := &Reader{sc: sc}
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("the cast is empty: no header")
	}
	cr.line = 1
	var h struct {
		Version       *int              `json:"version"`
		Width         int               `json:"width"`
		Height        int               `json:"height"`
		Timestamp     int64             `json:"timestamp"`
		IdleTimeLimit float64           `json:"idle_time_limit"`
		Title         string            `json:"title"`
		Env           map[string]string `json:"env"`
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		return nil, fmt.Errorf("line 1, the header: %v", err)
	}
	switch {
	case h.Version == nil || *h.Version != Version:
		return nil, fmt.Errorf("line 1, the header: not an asciicast v%d header: %.80s", Version, sc.Text())
	case h.Width <= 0 || h.Height <= 0:
		return nil, fmt.Errorf("line 1, the header: the size %dx%d is not a size", h.Width, h.Height)
	}
	cr.Header = Header{Width: h.Width, Height: h.Height, Title: h.Title, Env: h.Env,
		IdleTimeLimit: time.Duration(h.IdleTimeLimit * float64(time.Second))}
	if h.Timestamp != 0 {
		cr.Header.Timestamp = time.Unix(h.Timestamp, 0)
	}
	return cr, nil
}

// Next returns the next event, or io.EOF after the last.
func (r *Reader) Next() (Event, error) {
	if !r.sc.Scan() {
		if err := r.sc.Err(); err != nil {
			return Event{}, fmt.Errorf("line %d: %v", r.line+1, err)
		}
		return Event{}, io.EOF
	}
	r.line++
	var parts []json.RawMessage
	if err := json.Unmarshal(r.sc.Bytes(), &parts); err != nil {
		return Event{}, fmt.Errorf("line %d: %v", r.line, err)
	}
	var e Event
	if len(parts) != 3 {
		return Event{}, fmt.Errorf("line %d: an event has 3 elements, not %d", r.line, len(parts))
	}
	if err := json.Unmarshal(parts[0], &e.Time); err != nil {
		return Event{}, fmt.Errorf("line %d: the time: %v", r.line, err)
	}
	if err := json.Unmarshal(parts[1], &e.Code); err != nil {
		return Event{}, fmt.Errorf("line %d: the code: %v", r.line, err)
	}
	if err := json.Unmarshal(parts[2], &e.Data); err != nil {
		return Event{}, fmt.Errorf("line %d: the data: %v", r.line, err)
	}
	if e.Time < r.last {
		return Event{}, fmt.Errorf("line %d: time %v comes after %v", r.line, e.Time, r.last)
	}
	r.last = e.Time
	if e.Code == Resize {
		if _, _, err := e.Size(); err != nil {
			return Event{}, fmt.Errorf("line %d: %v", r.line, err)
		}
	}
	return e, nil
}

// ReadAll reads the whole cast r.
func ReadAll(r io.Reader) (Header, []Event, error) {
	cr, err := NewReader(r)
	if err != nil {
		return Header{}, nil, err
	}
	var events []Event
	for {
		e, err := cr.Next()
		if err == io.EOF {
			return cr.Header, events, nil
		}
		if err != nil {
			return cr.Header, events, err
		}
		events = append(events, e)
	}
}
