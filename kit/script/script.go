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
	"errors"
	"fmt"
	"strings"
	"time"
)

// Script is one stream to replay and what is known of it.
type Script struct {
	Name        string
	Description string
	Input       json.RawMessage // the run input it was recorded with or is meant for; nil if none
	Peer        string          // client.maxProtocolVersion: the producer is older than 1.0
	Frames      []Frame
	Expect      json.RawMessage // what a 1.0 consumer must end with; nil if not said
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
	Reason string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Reason
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
}

// Parse reads a script in any of the three shapes. name is what the
// script is called when it does not say (its file's base name).
func Parse(data []byte, name string) (Script, error) {
	if len(data) > MaxBytes {
		return Script{}, &Error{Reason: fmt.Sprintf("the file is over %d MiB", MaxBytes>>20)}
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	skipped := len(data) - len(trimmed)
	switch {
	case len(trimmed) == 0:
		return Script{}, &Error{Reason: "the file is empty"}
	case trimmed[0] == '[':
		var items []json.RawMessage
		if err := strict(data, &items); err != nil {
			return Script{}, err
		}
		s := Script{Name: name}
		return s, s.addFrames(items, data, skipped)
	case trimmed[0] != '{':
		return Script{}, &Error{Line: lineAt(data, skipped), Reason: "a script is a JSON array, JSON Lines, or an object with a \"stream\""}
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err == nil {
		if _, ok := probe["stream"]; ok {
			return parseObject(data, probe, name)
		}
	}
	return parseLines(data, name)
}

// Decode decodes JSON as a script's reader does: an error is an *Error
// that says the line.
func Decode(data []byte, v any) error { return strict(data, v) }

// strict decodes JSON, placing a syntax error on its line.
func strict(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax):
			return &Error{Line: lineAt(data, int(syntax.Offset)), Reason: "invalid JSON: " + syntax.Error()}
		case errors.As(err, &typ):
			return &Error{Line: lineAt(data, int(typ.Offset)), Reason: typ.Error()}
		}
		return &Error{Reason: err.Error()}
	}
	return nil
}

func lineAt(data []byte, offset int) int {
	offset = min(max(offset, 0), len(data))
	return 1 + bytes.Count(data[:offset], []byte("\n"))
}

func parseLines(data []byte, name string) (Script, error) {
	s := Script{Name: name}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if !json.Valid([]byte(line)) {
			var v any
			err := json.Unmarshal([]byte(line), &v)
			return Script{}, &Error{Line: i + 1, Reason: "invalid JSON: " + err.Error()}
		}
		frame, err := readStep(json.RawMessage(line))
		if err != nil {
			return Script{}, &Error{Line: i + 1, Reason: err.Error()}
		}
		frame.Line = i + 1
		s.Frames = append(s.Frames, frame)
	}
	if len(s.Frames) == 0 {
		return Script{}, &Error{Reason: "the file holds no event"}
	}
	return s, nil
}

func parseObject(data []byte, members map[string]json.RawMessage, name string) (Script, error) {
	var head struct {
		Name        *string         `json:"name"`
		Description string          `json:"description"`
		Input       json.RawMessage `json:"input"`
		Client      struct {
			MaxProtocolVersion string `json:"maxProtocolVersion"`
		} `json:"client"`
		Stream        []json.RawMessage `json:"stream"`
		Expect        json.RawMessage   `json:"expect"`
		Continuations json.RawMessage   `json:"continuations"`
	}
	if err := strict(data, &head); err != nil {
		return Script{}, err
	}
	s := Script{Name: name, Description: head.Description, Peer: head.Client.MaxProtocolVersion, Extra: map[string]json.RawMessage{}}
	if head.Name != nil {
		if strings.TrimSpace(*head.Name) == "" {
			return Script{}, &Error{Line: lineOf(data, `"name"`), Reason: "name must not be blank"}
		}
		s.Name = *head.Name
	}
	if len(head.Input) > 0 && string(head.Input) != "null" {
		if head.Input[0] != '{' {
			return Script{}, &Error{Line: lineOf(data, `"input"`), Reason: "input must be an object"}
		}
		s.Input = head.Input
	}
	if len(head.Expect) > 0 && string(head.Expect) != "null" {
		s.Expect = head.Expect
	}
	for k, v := range members {
		switch k {
		case "name", "description", "input", "client", "stream", "expect", "continuations":
		default:
			s.Extra[k] = v
		}
	}
	if err := s.addFrames(head.Stream, data, 0); err != nil {
		return Script{}, err
	}
	if head.Continuations != nil {
		var err error
		if s.Continuations, err = readContinuations(head.Continuations, data); err != nil {
			return Script{}, err
		}
		if err := s.checkContinuations(data); err != nil {
			return Script{}, err
		}
	}
	return s, nil
}

// lineOf is the line of a member's first appearance, for errors.
func lineOf(data []byte, needle string) int {
	if i := bytes.Index(data, []byte(needle)); i >= 0 {
		return lineAt(data, i)
	}
	return 0
}

// addFrames reads the items of a stream, each an event or a frame.
func (s *Script) addFrames(items []json.RawMessage, data []byte, from int) error {
	frames, err := readFrames(items, data, from)
	if err != nil {
		return err
	}
	s.Frames = append(s.Frames, frames...)
	if len(s.Frames) == 0 {
		return &Error{Reason: "the stream holds no event"}
	}
	return nil
}

// readFrames reads the items of a stream found in data after from, each
// an event or a frame.
func readFrames(items []json.RawMessage, data []byte, from int) ([]Frame, *Error) {
	var frames []Frame
	offset := from
	for i, item := range items {
		line := 0
		if at := bytes.Index(data[offset:], item); at >= 0 {
			line = lineAt(data, offset+at)
			offset += at + len(item)
		}
		frame, err := readStep(item)
		if err != nil {
			return nil, &Error{Line: line, Reason: fmt.Sprintf("stream item %d: %v", i, err)}
		}
		frame.Line = line
		frames = append(frames, frame)
	}
	return frames, nil
}

// readStep reads one stream item: an event (an object with a "type"), or
// {"afterMs", "event"} or {"afterMs", "comment"}. An event is kept as
// written (compacted): a script may hold anything, valid AG-UI or not.
func readStep(item json.RawMessage) (Frame, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(item, &members); err != nil {
		if bytes.HasPrefix(bytes.TrimSpace(item), []byte("{")) {
			return Frame{}, err
		}
		return Frame{}, errors.New("an event is a JSON object")
	}
	if _, isEvent := members["type"]; isEvent || (members["afterMs"] == nil && members["event"] == nil && members["comment"] == nil) {
		event := Compact(item)
		frame := Frame{Event: event}
		frame.Type, frame.ids = readEvent(event)
		return frame, nil
	}
	var w struct {
		AfterMs *float64        `json:"afterMs"`
		Event   json.RawMessage `json:"event"`
		Comment *string         `json:"comment"`
	}
	dec := json.NewDecoder(bytes.NewReader(item))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return Frame{}, fmt.Errorf("a frame is {\"afterMs\", \"event\"} or {\"afterMs\", \"comment\"}: %v", err)
	}
	var frame Frame
	if w.AfterMs != nil {
		if *w.AfterMs < 0 || *w.AfterMs > float64(MaxAfter/time.Millisecond) {
			return Frame{}, errors.New("afterMs must be between 0 and 3,600,000 (an hour)")
		}
		frame.After = time.Duration(*w.AfterMs * float64(time.Millisecond))
	}
	switch {
	case w.Event != nil && w.Comment == nil:
		if bytes.TrimSpace(w.Event)[0] != '{' {
			return Frame{}, errors.New("an event is a JSON object")
		}
		frame.Event = Compact(w.Event)
		frame.Type, frame.ids = readEvent(frame.Event)
	case w.Comment != nil && w.Event == nil:
		if strings.ContainsAny(*w.Comment, "\r\n") {
			return Frame{}, errors.New("a comment is one line")
		}
		frame.Comment = *w.Comment
	default:
		return Frame{}, errors.New("a frame has an event or a comment")
	}
	return frame, nil
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
