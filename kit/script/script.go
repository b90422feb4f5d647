// Package script reads AG-UI scripts: streams of events to replay, from
// files in one of three shapes, one reader for all.
//
//   - a JSON array of events;
//   - JSON Lines: one event a line;
//   - an object in the AG-UI conformance corpus's shape
//     (spec/1.0/conformance/streams in ag-ui-protocol/ag-ui): "name",
//     "description", "stream", and optionally "input", "client" and
//     "expect".
//
// This project's own format is the corpus shape with more: an item of
// "stream" may be {"afterMs": n, "event": {...}} (an event after a delay)
// or {"afterMs": n, "comment": "..."} (an SSE comment line), the object
// may say how its interrupted run goes on when resumed ("continuations",
// see Continuation), and it may carry what the demo shows of a script
// (see Script). Encode
// writes that format; ReadFile and Paths read files and directories of
// scripts, bounded.
package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Script is one stream to replay and what is known of it.
type Script struct {
	Name        string
	Description string
	Input       json.RawMessage // the run input it was recorded with or is meant for; nil if none
	Peer        string          // client.maxProtocolVersion: the producer is older than 1.0
	Frames      []Frame
	Expect      json.RawMessage // what a 1.0 consumer must end with; nil if not said
	// RecordedAt is when a recording's request was sent ("recordedAt",
	// which record writes); zero for a script written by hand. A replay
	// keeps the recording's times where they stood (recorded.go).
	RecordedAt time.Time
	// Continuations are how its interrupted run goes on when resumed
	// (continuation.go); none for most scripts.
	Continuations []Continuation
	Extra         map[string]json.RawMessage // other members of a script object
}

// Frame is one frame of a script: an event, or an SSE comment.
type Frame struct {
	After   time.Duration   // the wait since the previous frame
	Event   json.RawMessage // the event as written, compact; nil for a comment
	Type    string          // the event's type as written; "" for a comment or a type that is not a string
	Comment string          // an SSE comment's text, when Event is nil
	Line    int             // where it starts in its file, from 1

	ids []idValue // its thread and run ids (idpaths.go), where ForRequest puts the request's
}

// MaxBytes bounds a script file.
const MaxBytes = 16 << 20

// MaxAfter bounds a frame's delay (afterMs).
const MaxAfter = time.Hour

// Error is a script that cannot be read: where, and why.
type Error struct {
	Line   int // from 1; 0 when it is the whole file
	Column int // from 1, in characters; 0 when not known
	Reason string
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return e.Reason
	case e.Column == 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Reason)
}

// Parse reads a script in any of the three shapes, exactly (exact.go).
// name is what the script is called when it does not say (its file's
// base name).
func Parse(data []byte, name string) (Script, error) {
	if len(data) > MaxBytes {
		return Script{}, &Error{Reason: fmt.Sprintf("the file is over %d MiB", MaxBytes>>20)}
	}
	d := Doc(data)
	body := bytes.TrimPrefix(data, []byte("\ufeff"))
	base := len(data) - len(body)
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	switch {
	case len(trimmed) == 0:
		return Script{}, &Error{Reason: "the file is empty"}
	case trimmed[0] == '[':
		items, err := d.Array(body, base, "a script")
		if err != nil {
			return Script{}, err
		}
		s := Script{Name: name}
		return s, s.addFrames(d, items)
	case trimmed[0] != '{':
		return Script{}, d.ErrorAt(len(data)-len(trimmed), "a script is a JSON array, JSON Lines, or an object with a \"stream\"")
	}
	// One object over any number of lines, or JSON Lines?
	if members, err := d.Members(body, base, "a script"); err == nil {
		switch {
		case Find(members, "stream") != nil:
			if err := d.once(members, "a script"); err != nil {
				return Script{}, err
			}
			return parseObject(d, members, name)
		case Find(members, "type") == nil || isProblem(d, members):
			return Script{}, notAScript(d, members)
		}
	}
	return parseLines(d, name)
}

// isProblem reports whether an object is an RFC 9457 problem (an HTTP
// error body, this server's among them): its "type" a URI, not an event
// type, beside a "title", "detail" or "status".
func isProblem(d Doc, members []Member) bool {
	typ, err := d.Text(*Find(members, "type"))
	if err != nil || !strings.Contains(typ, ":") {
		return false
	}
	return Find(members, "title") != nil || Find(members, "detail") != nil || Find(members, "status") != nil
}

// notAScript says what a lone object with no "stream" and no "type" is:
// often an HTTP error body saved where a stream was expected.
func notAScript(d Doc, members []Member) *Error {
	for _, m := range members {
		switch m.Name {
		case "detail", "error", "title", "message", "errors", "status", "statusCode":
			return &Error{Line: 1, Reason: fmt.Sprintf("the file holds an HTTP error body, not a stream: %s", excerpt(d))}
		}
		if strings.EqualFold(m.Name, "stream") {
			return d.ErrorAt(m.At, "a script has no member %q: names are case-sensitive (\"stream\")", m.Name)
		}
	}
	return &Error{Line: 1, Reason: "one JSON object with neither a \"stream\" (a script) nor a \"type\" (an event): not a script"}
}

// excerpt is the start of a file, white space collapsed, for an error.
func excerpt(d Doc) string {
	text := strings.Join(strings.Fields(string(d)), " ")
	if utf8.RuneCountInString(text) > 120 {
		text = string([]rune(text)[:120]) + "…"
	}
	return text
}

func parseLines(d Doc, name string) (Script, error) {
	s := Script{Name: name}
	at, n := 0, 0
	for line := range bytes.Lines(d) {
		start := at
		at, n = at+len(line), n+1
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		text := bytes.TrimRight(line, "\r\n")
		if start == 0 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
			start += len(line) - len(bytes.TrimPrefix(line, []byte("\ufeff")))
		}
		frame, err := readStep(d, text, start, n, "")
		if err != nil {
			return Script{}, err
		}
		s.Frames = append(s.Frames, frame)
	}
	if len(s.Frames) == 0 {
		return Script{}, &Error{Reason: "the file holds no event"}
	}
	return s, nil
}

func parseObject(d Doc, members []Member, name string) (Script, error) {
	s := Script{Name: name, Extra: map[string]json.RawMessage{}}
	var stream, continuations *Member
	for i := range members {
		m := &members[i]
		var err *Error
		switch m.Name {
		case "name":
			if s.Name, err = d.Text(*m); err == nil && strings.TrimSpace(s.Name) == "" {
				err = d.ErrorAt(m.At, "name must not be blank")
			}
		case "description":
			s.Description, err = d.Text(*m)
		case "recordedAt":
			s.RecordedAt, err = readTime(d, *m)
		case "input":
			switch m.Value.Kind() {
			case 'n':
			case '{':
				s.Input = json.RawMessage(m.Value)
			default:
				err = d.ErrorAt(m.At, "input must be an object")
			}
		case "client":
			s.Peer, err = readClient(d, *m)
		case "stream":
			stream = m
		case "expect":
			if m.Value.Kind() != 'n' {
				s.Expect = json.RawMessage(m.Value)
			}
		case "continuations":
			continuations = m
		default:
			s.Extra[m.Name] = json.RawMessage(m.Value)
		}
		if err != nil {
			return Script{}, err
		}
	}
	items, err := d.Array(stream.Value, stream.At, "stream")
	if err != nil {
		return Script{}, err
	}
	if err := s.addFrames(d, items); err != nil {
		return Script{}, err
	}
	if continuations != nil && continuations.Value.Kind() != 'n' {
		conts, err := readContinuations(d, *continuations)
		if err != nil {
			return Script{}, err
		}
		s.Continuations = conts
		if err := s.checkContinuations(d); err != nil {
			return Script{}, err
		}
	}
	return s, nil
}

// readTime reads an RFC 3339 date-time.
func readTime(d Doc, m Member) (time.Time, *Error) {
	text, err := d.Text(m)
	if err != nil {
		return time.Time{}, err
	}
	t, perr := time.Parse(time.RFC3339Nano, text)
	if perr != nil {
		return time.Time{}, d.ErrorAt(m.At, "%s must be an RFC 3339 date-time, such as 2026-12-07T22:00:00Z", m.Name)
	}
	return t, nil
}

// readClient reads "client": {"maxProtocolVersion": "…"}, the version of
// a producer older than 1.0.
func readClient(d Doc, m Member) (string, *Error) {
	members, err := d.Object(m.Value, m.At, "client")
	if err != nil {
		return "", err
	}
	if v := Find(members, "maxProtocolVersion"); v != nil {
		return d.Text(*v)
	}
	return "", nil
}

// lineOf is the line of a Member's first appearance, for errors.
func lineOf(data []byte, needle string) int {
	if i := bytes.Index(data, []byte(needle)); i >= 0 {
		line, _ := Doc(data).position(i)
		return line
	}
	return 0
}

// addFrames reads the items of a stream, each an event or a frame.
func (s *Script) addFrames(d Doc, items []Item) error {
	frames, err := readFrames(d, items, &lineCounter{d: d})
	if err != nil {
		return err
	}
	s.Frames = append(s.Frames, frames...)
	if len(s.Frames) == 0 {
		return &Error{Reason: "the stream holds no event"}
	}
	return nil
}

// readFrames reads the items of a stream, each an event or a frame,
// placing them on their lines with lines.
func readFrames(d Doc, items []Item, lines *lineCounter) ([]Frame, *Error) {
	frames := make([]Frame, 0, len(items))
	for i, it := range items {
		frame, err := readStep(d, it.Value, it.At, lines.lineAt(it.At), fmt.Sprintf("stream item %d", i))
		if err != nil {
			return nil, err
		}
		frames = append(frames, frame)
	}
	return frames, nil
}

// readStep reads one stream Item, found at base, on line: an event (an
// object with a "type"), or {"afterMs", "event"} or {"afterMs", "comment"}.
// An event is kept as written (compacted): a script may hold anything,
// valid AG-UI or not. what names the item in errors.
func readStep(d Doc, raw []byte, base, line int, what string) (Frame, *Error) {
	fail := func(err *Error) (Frame, *Error) {
		if what != "" {
			err.Reason = what + ": " + err.Reason
		}
		return Frame{}, err
	}
	members, err := d.Members(raw, base, "an event")
	if err != nil {
		return fail(err)
	}
	if Find(members, "type") != nil || (Find(members, "afterMs") == nil && Find(members, "event") == nil && Find(members, "comment") == nil) {
		if err := d.Only(frameNames(members), "a frame", "afterMs", "event", "comment"); err != nil && len(members) > 0 && Find(members, "type") == nil {
			return fail(err) // "Event" or "AfterMs": a frame misspelt, not an event
		}
		event := Compact(raw)
		frame := Frame{Event: event, Line: line}
		frame.Type, frame.ids = readEvent(event)
		return frame, nil
	}
	if err := d.Only(members, "a frame", "afterMs", "event", "comment"); err != nil {
		return fail(err)
	}
	if err := d.once(members, "a frame"); err != nil {
		return fail(err)
	}
	frame := Frame{Line: line}
	if m := Find(members, "afterMs"); m != nil {
		var ms float64
		if m.Value.Kind() != '0' || json.Unmarshal(m.Value, &ms) != nil || ms < 0 || ms > float64(MaxAfter/time.Millisecond) {
			return fail(d.ErrorAt(m.At, "afterMs must be a number between 0 and 3,600,000 (an hour)"))
		}
		frame.After = time.Duration(ms * float64(time.Millisecond))
	}
	event, comment := Find(members, "event"), Find(members, "comment")
	switch {
	case event != nil && comment == nil:
		if event.Value.Kind() != '{' {
			return fail(d.ErrorAt(event.At, "an event is a JSON object"))
		}
		frame.Event = Compact(json.RawMessage(event.Value))
		frame.Type, frame.ids = readEvent(frame.Event)
	case comment != nil && event == nil:
		text, err := d.Text(*comment)
		if err != nil {
			return fail(err)
		}
		if strings.ContainsAny(text, "\r\n") {
			return fail(d.ErrorAt(comment.At, "a comment is one line"))
		}
		frame.Comment = text
	default:
		return fail(d.ErrorAt(base, "a frame has an event or a comment"))
	}
	return frame, nil
}

// frameNames are the members whose names a frame's differ from by case
// alone: an event with none of them is an event, whatever it holds.
func frameNames(members []Member) []Member {
	var out []Member
	for _, m := range members {
		for _, n := range []string{"afterMs", "event", "comment"} {
			if strings.EqualFold(m.Name, n) {
				out = append(out, m)
			}
		}
	}
	return out
}

// Compact is raw without insignificant whitespace, or raw itself when it
// is not JSON: what a script keeps of an event or a payload as written.
func Compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// Events are the script's events, in order, without comments.
func (s Script) Events() [][]byte {
	var out [][]byte
	for _, st := range s.Frames {
		if st.Event != nil {
			out = append(out, st.Event)
		}
	}
	return out
}

// checkContinuations: continuations resume the requested run's
// interrupts, so it must raise them, and each "when" must name one.
func (s Script) checkContinuations(data []byte) error {
	if len(s.Continuations) == 0 {
		return nil
	}
	raised := map[string]bool{}
	for _, i := range s.Interrupts() {
		if strings.Contains(i.ID, "@") { // served as id@thread: an "@" of its own would make the thread ambiguous
			return &Error{Line: lineOf(data, `"`+i.ID+`"`), Reason: fmt.Sprintf("interrupt %q: a script that continues names its interrupts without \"@\" (the server adds \"@\" and the thread)", i.ID)}
		}
		raised[i.ID] = true
	}
	if len(raised) == 0 {
		return &Error{Line: lineOf(data, `"continuations"`), Reason: "continuations resume an interrupted run, and the requested run does not end with the interrupt outcome"}
	}
	for _, c := range s.Continuations {
		for n, m := range c.When {
			if !raised[m.InterruptID] {
				return &Error{Line: c.Line, Reason: fmt.Sprintf("continuation %q: when %d: the requested run raises no interrupt %q", c.Name, n, m.InterruptID)}
			}
		}
	}
	return nil
}
