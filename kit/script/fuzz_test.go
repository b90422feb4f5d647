package script

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzParse reads arbitrary bytes as a script: it never panics, refuses
// with an *Error that says a line within the file (or none), and a script
// it reads writes out (Encode) and reads back to the same frames.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		`[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"afterMs":1.5,"comment":"k"}]`,
		"{\"type\":\"A\"}\n\n{\"afterMs\":2,\"event\":{\"type\":\"B\",\"type\":\"C\"}}\n",
		`{"name":"n","stream":[{"type":"A"}],"input":{"threadId":"t"},"client":{"maxProtocolVersion":"0.0.57"},"expect":{}}`,
		`{"stream":[{"type":"RUN_STARTED","threadId":"T","runId":"R"},{"type":"RUN_FINISHED","threadId":"T","runId":"R","outcome":{"type":"interrupt","interrupts":[{"id":"a","reason":"r"}]}}],"continuations":[{"name":"c","when":[{"interruptId":"a","status":"resolved","payload":{"x":1}}],"stream":[{"type":"RUN_STARTED","threadId":"T","runId":"R2"}]}]}`,
		`{"detail":"Not Found"}`,
		"\ufeff[{\"Event\":{}}]",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, "fuzz")
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("a refusal that is no *Error: %v", err)
			}
			if se.Line < 0 || se.Line > 1+bytes.Count(data, []byte("\n")) || se.Column < 0 {
				t.Fatalf("line %d, column %d of a file of %d lines: %v", se.Line, se.Column, 1+bytes.Count(data, []byte("\n")), err)
			}
			return
		}
		out, err := s.Encode()
		if err != nil {
			return // an event that is not JSON the encoder refuses to write
		}
		back, err := Parse(out, "fuzz")
		if err != nil {
			t.Fatalf("its own writing is refused: %v\n%s", err, out)
		}
		if len(back.Frames) != len(s.Frames) {
			t.Fatalf("%d frames, %d after a round trip", len(s.Frames), len(back.Frames))
		}
		for i := range s.Frames {
			if !bytes.Equal(s.Frames[i].Event, back.Frames[i].Event) || s.Frames[i].Comment != back.Frames[i].Comment {
				t.Fatalf("frame %d: %s, then %s", i, s.Frames[i].Event, back.Frames[i].Event)
			}
		}
	})
}
