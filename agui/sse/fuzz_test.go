package sse

import (
	"bytes"
	"errors"
	"fmt"
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

// FuzzReaderInChunks reads a stream in reads of 1 to 9 bytes, empty reads
// between them or not, its end said with the last bytes, alone, or never
// (the source fails instead): the same events and lines as read whole, the
// lines as the standard splits them, and no event held back until the
// reader asked for bytes past the stream's.
func FuzzReaderInChunks(f *testing.F) {
	f.Add([]byte("data: a\r\n\r\ndata: b\r\n\r\n"), []byte{7, 0, 1, 8, 2}, byte(1))
	f.Add([]byte("data: a\r\n\r"), []byte{8, 0}, byte(5))
	f.Add([]byte("\ufeffdata: x\r\ndata:y\r\r\n"), []byte{0, 1, 2}, byte(3))
	f.Fuzz(func(t *testing.T, data, sizes []byte, mode byte) {
		if len(data) > 3000 {
			return
		}
		whole, wholeLines, err := readLines(t, bytes.NewReader(data))
		if err != io.EOF {
			t.Fatalf("read whole, it ended with %v", err)
		}
		if want := standardLines(data); fmt.Sprint(wholeLines) != fmt.Sprint(want) {
			t.Fatalf("lines read whole %+v, as the standard splits them %+v", wholeLines, want)
		}
		src := &chunks{data: data, sizes: sizes, eofWithLast: mode&1 != 0, empties: mode&2 != 0, fails: mode&4 != 0}
		got, gotLines, err := readLines(t, src)
		if want := map[bool]error{false: io.EOF, true: errSource}[src.fails]; err != want {
			t.Fatalf("read in chunks, it ended with %v, want %v", err, want)
		}
		if strings.Join(got, "\x00") != strings.Join(whole, "\x00") || len(got) != len(whole) || fmt.Sprint(gotLines) != fmt.Sprint(wholeLines) {
			t.Fatalf("whole %q %+v; in chunks %q %+v", whole, wholeLines, got, gotLines)
		}
	})
}

// A seen line, and whether it is the stream's end inside a line.
type seenLine struct {
	line    string
	unended bool
}

// readLines reads every event of r and the lines OnLine is told of,
// failing the test for an event that came only once r was read past its
// bytes (chunks.past).
func readLines(t *testing.T, r io.Reader) ([]string, []seenLine, error) {
	s := NewReader(r, 4096)
	var lines []seenLine
	s.OnLine = func(l []byte) { lines = append(lines, seenLine{string(l), s.Unended()}) }
	var events []string
	for {
		ev, err := s.Next()
		if err != nil {
			return events, lines, err
		}
		if c, ok := r.(*chunks); ok && c.past {
			t.Fatalf("event %q came only once the stream was read past its bytes", ev)
		}
		events = append(events, string(ev))
	}
}

// standardLines splits a stream at LF, CRLF or CR, as the standard does;
// the last, with no line end, is unended.
func standardLines(data []byte) []seenLine {
	var out []seenLine
	for d := string(data); d != ""; {
		i := strings.IndexAny(d, "\r\n")
		if i < 0 {
			out = append(out, seenLine{d, true})
			break
		}
		out = append(out, seenLine{d[:i], false})
		if d[i] == '\r' && i+1 < len(d) && d[i+1] == '\n' {
			i++
		}
		d = d[i+1:]
	}
	if len(out) > 0 {
		out[0].line = strings.TrimPrefix(out[0].line, "\uFEFF")
	}
	return out
}

var errSource = errors.New("the source failed")

// chunks reads data in reads of sizes[i]%9+1 bytes (the rest at once
// when sizes run out), an empty read before each if empties, the end with
// the last bytes if eofWithLast, or errSource in its place if fails.
type chunks struct {
	data                        []byte
	sizes                       []byte
	eofWithLast, empties, fails bool
	emptied, past               bool
}

func (c *chunks) Read(p []byte) (int, error) {
	if c.empties && !c.emptied {
		c.emptied = true
		return 0, nil
	}
	c.emptied = false
	if len(c.data) == 0 {
		if c.fails {
			c.past = true
			return 0, errSource
		}
		return 0, io.EOF
	}
	n := len(c.data)
	if len(c.sizes) > 0 {
		n, c.sizes = int(c.sizes[0])%9+1, c.sizes[1:]
	}
	n = copy(p, c.data[:min(n, len(c.data))])
	c.data = c.data[n:]
	if len(c.data) == 0 && c.eofWithLast && !c.fails {
		return n, io.EOF
	}
	return n, nil
}
