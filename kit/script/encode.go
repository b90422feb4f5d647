package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

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

// FrameSize is the bytes Encode writes for f in a script's "stream", the
// comma before it included (the first frame has none): counted, not
// written, as a writer that bounds a script needs to before it holds
// one, for a frame's event may be indented to many times its size.
func FrameSize(f Frame) int {
	// ,\n    {\n      "afterMs": N,\n      "event": E\n    }
	var num [32]byte
	n := len(",\n    {") + len("\n      \"afterMs\": ") +
		len(strconv.AppendFloat(num[:0], float64(f.After)/float64(time.Millisecond), 'f', -1, 64)) + len(",") +
		len("\n    }")
	if f.Event != nil {
		return n + len("\n      \"event\": ") + indentedSize(f.Event, 3)
	}
	return n + len("\n      \"comment\": ") + quotedSize(f.Comment)
}

// indentedSize is the bytes json.Indent (by two spaces) writes for the
// JSON value v that starts depth levels deep: whitespace between tokens
// dropped, a newline and indentation after each opening and comma and
// before each closing, but for an empty object or array.
func indentedSize(v []byte, depth int) int {
	n := 0
	inString, escaped, opened := false, false, false
	for _, c := range v {
		if inString {
			n++
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			continue
		}
		if opened && c != '}' && c != ']' {
			opened = false
			depth++
			n += 1 + 2*depth
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			opened = true
		case ',':
			n += 1 + 2*depth
		case ':':
			n++ // a space after it
		case '}', ']':
			if opened {
				opened = false
			} else {
				depth--
				n += 1 + 2*depth
			}
		}
		n++
	}
	return n
}

// quotedSize is the bytes jsontext.AppendQuote writes for text.
func quotedSize(text string) int {
	n := len(`""`)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		i += size
		switch {
		case r == utf8.RuneError && size == 1:
			n += utf8.RuneLen(utf8.RuneError) // replaced
		case r == '"' || r == '\\' || r == '\b' || r == '\t' || r == '\n' || r == '\f' || r == '\r':
			n += 2
		case r < 0x20:
			n += len(`\u0000`)
		default:
			n += size
		}
	}
	return n
}
