package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// Encode writes the script in this project's own format, the one the
// fixtures are written in and record writes: an object whose "stream"
// holds {"afterMs", "event"} and {"afterMs", "comment"} frames, indented
// by two spaces. Events and the input are written as they are (only
// their whitespace changes), so Parse gives back the same events, byte
// for byte.
func (s Script) Encode() ([]byte, error) {
	var b []byte
	member := func(name string, value []byte) {
		if len(b) > 0 {
			b = append(b, ',')
		}
		b, _ = jsontext.AppendQuote(b, name)
		b = append(append(b, ':'), value...)
	}
	quote := func(text string) []byte { q, _ := jsontext.AppendQuote(nil, text); return q }
	if s.Name != "" {
		member("name", quote(s.Name))
	}
	if s.Description != "" {
		member("description", quote(s.Description))
	}
	if !s.RecordedAt.IsZero() {
		member("recordedAt", quote(s.RecordedAt.UTC().Format(time.RFC3339Nano)))
	}
	if s.Peer != "" {
		member("client", append(append([]byte(`{"maxProtocolVersion":`), quote(s.Peer)...), '}'))
	}
	if s.Input != nil {
		member("input", s.Input)
	}
	member("stream", encodeFrames(s.Frames))
	if len(s.Continuations) > 0 {
		list := []byte{'['}
		for i, c := range s.Continuations {
			if i > 0 {
				list = append(list, ',')
			}
			list = append(list, `{"name":`...)
			list = append(list, quote(c.Name)...)
			when, err := json.Marshal(c.When)
			if err != nil {
				return nil, fmt.Errorf("continuation %q: %v", c.Name, err)
			}
			list = append(append(list, `,"when":`...), when...)
			for _, name := range slices.Sorted(maps.Keys(c.Extra)) {
				list = append(list, ',')
				list, _ = jsontext.AppendQuote(list, name)
				list = append(append(list, ':'), c.Extra[name]...)
			}
			list = append(append(list, `,"stream":`...), encodeFrames(c.Frames)...)
			list = append(list, '}')
		}
		member("continuations", append(list, ']'))
	}
	if s.Expect != nil {
		member("expect", s.Expect)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Extra)) {
		member(name, s.Extra[name])
	}
	var out bytes.Buffer
	// json.Indent checks the whole is JSON, and escapes nothing.
	if err := json.Indent(&out, append(append([]byte{'{'}, b...), '}'), "", "  "); err != nil {
		return nil, fmt.Errorf("the script is not JSON: %v", err)
	}
	return append(out.Bytes(), '\n'), nil
}

// encodeFrames is a stream of {"afterMs", "event"} and {"afterMs",
// "comment"} frames.
func encodeFrames(frames []Frame) []byte {
	stream := []byte{'['}
	for i, st := range frames {
		if i > 0 {
			stream = append(stream, ',')
		}
		stream = append(stream, `{"afterMs":`...)
		stream = strconv.AppendFloat(stream, float64(st.After)/float64(time.Millisecond), 'f', -1, 64)
		if st.Event != nil {
			stream = append(append(stream, `,"event":`...), st.Event...)
		} else {
			stream = append(stream, `,"comment":`...)
			stream, _ = jsontext.AppendQuote(stream, st.Comment)
		}
		stream = append(stream, '}')
	}
	return append(stream, ']')
}
