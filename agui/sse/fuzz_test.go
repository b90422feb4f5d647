package sse

import (
	"bytes"
	"errors"
	"io"
	"strings"
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
		// Reads that end at each CR, the last with io.EOF, as a body's
		// last bytes come: the LF of a CRLF is then the next read's first.
		var chunks []string
		for rest := string(data); rest != ""; {
			i := strings.IndexByte(rest, '\r') + 1
			if i == 0 {
				i = len(rest)
			}
			chunks, rest = append(chunks, rest[:i]), rest[i:]
		}
		// (A line with no end that fills the buffer is too large read
		// whole, and cut short read with the end: only the events compare.)
		atCR, err3 := read(&eofWithLast{chunks})
		if !errors.Is(err3, io.EOF) && !errors.Is(err3, ErrEventTooLarge) || strings.Join(atCR, "\x00") != strings.Join(whole, "\x00") || len(atCR) != len(whole) {
			t.Fatalf("whole: %q %v; in reads ending at each CR: %q %v", whole, err, atCR, err3)
		}
	})
}

// eofWithLast reads its chunks one a read, the last with io.EOF.
type eofWithLast struct{ chunks []string }

func (r *eofWithLast) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.chunks[0])
	if r.chunks[0] = r.chunks[0][n:]; r.chunks[0] == "" {
		r.chunks = r.chunks[1:]
	}
	if len(r.chunks) == 0 {
		return n, io.EOF
	}
	return n, nil
}
