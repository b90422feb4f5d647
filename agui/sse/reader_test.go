package sse

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t *testing.T, stream string, max int) ([]string, error) {
	t.Helper()
	return readChunked(t, stream, max, 1)
}

// readChunked reads the stream's events as it arrives in reads of at most
// size bytes.
func readChunked(t *testing.T, stream string, max, size int) ([]string, error) {
	t.Helper()
	r := NewReader(chunked{strings.NewReader(stream), size}, max)
	var out []string
	for {
		data, err := r.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return out, err
		}
		out = append(out, string(data))
	}
}

func TestSSEReader(t *testing.T) {
	tests := []struct {
		name, stream string
		want         []string
	}{
		{"AG-UI framing", "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n", []string{`{"a":1}`, `{"b":2}`}},
		{"CRLF and lone CR", "data: a\r\n\r\ndata: b\r\rdata: c\n\n", []string{"a", "b", "c"}},
		{"multi-line data joins with LF", "data: {\"a\":\ndata: 1}\n\n", []string{"{\"a\":\n1}"}},
		{"comments and other fields", ": hi\nevent: x\nid: 7\nretry: 10\ndata: d\n\n", []string{"d"}},
		{"no space after colon", "data:x\n\n", []string{"x"}},
		{"only one space is stripped", "data:  x\n\n", []string{" x"}},
		{"a field with no colon", "data\n\n", []string{""}},
		{"blank lines without data", "\n\n\ndata: x\n\n", []string{"x"}},
		{"BOM", "\uFEFFdata: x\n\n", []string{"x"}},
		{"unterminated last event is dropped", "data: x\n\ndata: y\n", []string{"x"}},
		{"unterminated last line", "data: x\n\ndata: y", []string{"x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Every split of the stream into reads gives the same events.
			for _, size := range []int{1, 2, 3, 5, 1024} {
				got, err := readChunked(t, tt.stream, 1024, size)
				if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
					t.Errorf("in reads of %d bytes: got %q, %v; want %q", size, got, err, tt.want)
				}
			}
		})
	}
}

func TestSSEReaderBoundsEvents(t *testing.T) {
	for _, stream := range []string{
		"data: " + strings.Repeat("x", 200) + "\n\n",                    // one long line
		strings.Repeat("data: "+strings.Repeat("x", 50)+"\n", 5) + "\n", // many lines
	} {
		if _, err := readAll(t, stream, 100); !errors.Is(err, ErrEventTooLarge) {
			t.Errorf("err %v, want ErrEventTooLarge", err)
		}
	}
}

// A comment line over the bound stops the reader as an event would, and
// says it was a comment.
func TestSSEReaderNamesALongComment(t *testing.T) {
	_, err := readAll(t, "data: x\n\n: "+strings.Repeat("k", 200)+"\n\n", 100)
	if !errors.Is(err, ErrCommentTooLarge) || !errors.Is(err, ErrEventTooLarge) {
		t.Errorf("a long comment: %v", err)
	}
	if _, err := readAll(t, "data: "+strings.Repeat("x", 200)+"\n\n", 100); errors.Is(err, ErrCommentTooLarge) {
		t.Errorf("a long event: %v", err)
	}
}

// OnLine sees every line, blank ones and comments included, before the
// event they belong to is returned; what the stream ends with after its
// last line end comes last, Unended.
func TestOnLineSeesEveryLineInOrder(t *testing.T) {
	r := NewReader(iotest.OneByteReader(strings.NewReader("\uFEFF: hi\r\nevent: x\ndata: a\n\ndata: b")), 1024)
	var seen []string
	r.OnLine = func(line []byte) {
		if r.Unended() {
			line = append([]byte("unended "), line...)
		}
		seen = append(seen, string(line))
	}
	data, err := r.Next()
	if err != nil || string(data) != "a" || strings.Join(seen, "|") != ": hi|event: x|data: a|" {
		t.Fatalf("%q %v, lines %q", data, err, seen)
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) || seen[len(seen)-1] != "unended data: b" {
		t.Errorf("%v, lines %q", err, seen)
	}
	// A stream that ends at a line end, a lone CR's included, leaves no
	// line unended.
	for _, stream := range []string{"data: a\n\n", "data: a\n\n: x\r", ""} {
		r := NewReader(strings.NewReader(stream), 1024)
		r.OnLine = func([]byte) {
			if r.Unended() {
				t.Errorf("%q: a line unended", stream)
			}
		}
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}

// A CR ends its line at once: an event whose blank line is a lone CR is
// returned without waiting for a byte that may be seconds away, and an LF
// after the CR, whenever it comes, is the same line end.
func TestALoneCREndsItsLineAtOnce(t *testing.T) {
	r := NewReader(&thenFail{t: t, first: "data: a\r\r"}, 1024)
	if data, err := r.Next(); err != nil || string(data) != "a" {
		t.Errorf("%q %v", data, err)
	}
	var seen []string
	r = NewReader(chunked{strings.NewReader("data: a\r\ndata: b\r\r\n\r\n"), 1}, 1024)
	r.OnLine = func(line []byte) { seen = append(seen, string(line)) }
	if data, err := r.Next(); err != nil || string(data) != "a\nb" || strings.Join(seen, "|") != "data: a|data: b|" {
		t.Errorf("%q %v, lines %q", data, err, seen)
	}
	if data, err := r.Next(); err != io.EOF || strings.Join(seen, "|") != "data: a|data: b||" {
		t.Errorf("%q %v, lines %q", data, err, seen)
	}
}

// An LF after a CR that ended the last read's bytes is skipped with what
// follows it in the same read: nothing that came with it is lost at the
// stream's end, or held back for bytes to come.
func TestTheLFOfACRLFSplitAcrossReads(t *testing.T) {
	r := NewReader(&reads{t: t, chunks: []string{"data: a\r\n\r", "\ndata: b\r\n\r\n"}, eofWithLast: true}, 1024)
	var got []string
	for {
		data, err := r.Next()
		if err != nil {
			break
		}
		got = append(got, string(data))
	}
	if strings.Join(got, "|") != "a|b" {
		t.Errorf("events %q", got)
	}
	r = NewReader(&reads{t: t, chunks: []string{"data: a\r\n\r", "\ndata: b\n\n"}}, 1024)
	for _, want := range []string{"a", "b"} {
		if data, err := r.Next(); err != nil || string(data) != want {
			t.Errorf("%q %v, want %q", data, err, want)
		}
	}
}

// reads gives its chunks one a read, the last with io.EOF if asked, and
// fails the test if read past them.
type reads struct {
	t           *testing.T
	chunks      []string
	eofWithLast bool
}

func (r *reads) Read(p []byte) (int, error) {
	if len(r.chunks) == 0 {
		r.t.Error("read past the chunks: an event waited for bytes to come")
		return 0, errors.New("read past")
	}
	n := copy(p, r.chunks[0])
	r.chunks = r.chunks[1:]
	if len(r.chunks) == 0 && r.eofWithLast {
		return n, io.EOF
	}
	return n, nil
}

// thenFail reads first, and fails the test if read again.
type thenFail struct {
	t     *testing.T
	first string
	read  bool
}

func (f *thenFail) Read(p []byte) (int, error) {
	if f.read {
		f.t.Error("read again: the event waited for more bytes")
		return 0, errors.New("read again")
	}
	f.read = true
	return copy(p, f.first), nil
}

// chunked reads at most size bytes at a time, as a fetch body's chunks come.
type chunked struct {
	r    io.Reader
	size int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.size)]) }

// BenchmarkBigEvent reads one event of 800 KB arriving in 16 KB chunks:
// the line is searched for its end once, not again with every chunk.
func BenchmarkBigEvent(b *testing.B) {
	stream := "data: " + strings.Repeat(`{"id":"svc-1","latency":120},`, 800<<10/29) + "\n\n"
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(chunked{strings.NewReader(stream), 16 << 10}, 1<<20)
		if _, err := r.Next(); err != nil {
			b.Fatal(err)
		}
	}
}

// A reader gives its buffers back at the stream's end: the next reader
// reads its own events whole, and the ended one keeps saying how it ended.
func TestEndedReaderKeepsItsEnd(t *testing.T) {
	const max = 1 << 20 // as the engine reads: the buffers are pooled
	first := NewReader(strings.NewReader("data: "+strings.Repeat("a", 5000)+"\n\n"), max)
	if data, err := first.Next(); err != nil || len(data) != 5000 {
		t.Fatalf("first event: %d bytes, %v", len(data), err)
	}
	for range 2 {
		if _, err := first.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the end: %v, want io.EOF every time", err)
		}
	}
	got, err := readChunked(t, "data: b\n\ndata: "+strings.Repeat("c", 300)+"\n\n", max, 7)
	if err != nil || len(got) != 2 || got[0] != "b" || got[1] != strings.Repeat("c", 300) {
		t.Fatalf("the next reader: %q, %v", got, err)
	}
	big := NewReader(strings.NewReader("data: "+strings.Repeat("x", 40)+"\n\n"), 10)
	for range 2 {
		if _, err := big.Next(); !errors.Is(err, ErrEventTooLarge) {
			t.Fatalf("an event over the bound: %v, want ErrEventTooLarge every time", err)
		}
	}
}

// A short stream read to its end costs the reader itself and its scanner:
// neither buffer is made anew.
func TestReaderReusesBuffers(t *testing.T) {
	stream := "data: {\"type\":\"RUN_STARTED\"}\n\ndata: {\"type\":\"RUN_FINISHED\"}\n\n"
	read := func() {
		r := NewReader(strings.NewReader(stream), 1<<20)
		for {
			if _, err := r.Next(); err != nil {
				return
			}
		}
	}
	read()
	if n := testing.AllocsPerRun(100, read); n > 5 {
		t.Errorf("%.0f allocations per stream, want at most 5 (the reader, its scanner, its split and what that remembers, the string reader)", n)
	}
}
