package sse

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzReader reads arbitrary bytes as a stream, whole and a byte at a
// time: it never panics, never returns an event over its limit, ends
// with io.EOF, ErrEventTooLarge or nothing else, and reads the same
// events however the bytes are split.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{
		"data: {\"type\":\"RUN_STARTED\"}\n\n",
		"data: a\r\ndata: b\r\n\r\n: keep-alive\r\n\r\n",
		"\ufeffdata: x\rdata:y\r\r",
		"event: e\nid: 1\nretry: 5\ndata\n\n",
		"data: cut short",
		": " + string(bytes.Repeat([]byte("c"), 80)) + "\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const limit = 64
		read := func(r io.Reader) ([]string, error) {
			s := NewReader(r, limit)
			var events []string
			for {
				ev, err := s.Next()
				if err != nil {
					return events, err
				}
				if len(ev) > limit {
					t.Fatalf("an event of %d bytes, over %d", len(ev), limit)
				}
				events = append(events, string(ev))
			}
		}
		whole, err := read(bytes.NewReader(data))
		if !errors.Is(err, io.EOF) && !errors.Is(err, ErrEventTooLarge) {
			t.Fatalf("ended with %v", err)
		}
		split, err2 := read(iotest.OneByteReader(bytes.NewReader(data)))
		if !errors.Is(err, err2) && !(errors.Is(err, ErrEventTooLarge) && errors.Is(err2, ErrEventTooLarge)) || len(whole) != len(split) {
			t.Fatalf("whole: %q %v; a byte at a time: %q %v", whole, err, split, err2)
		}
		for i := range whole {
			if whole[i] != split[i] {
				t.Fatalf("event %d: %q whole, %q a byte at a time", i, whole[i], split[i])
			}
		}
	})
}
