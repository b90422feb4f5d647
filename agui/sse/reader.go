package sse

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// ErrEventTooLarge reports an event over the reader's limit.
var ErrEventTooLarge = errors.New("sse: event too large")

// ErrCommentTooLarge reports a comment line over the limit: it holds no
// event, but a reader must hold a line whole to know that, so it stops
// there too. errors.Is(err, ErrEventTooLarge) holds for it.
var ErrCommentTooLarge error = commentTooLarge{}

type commentTooLarge struct{}

func (commentTooLarge) Error() string        { return "sse: comment line too large" }
func (commentTooLarge) Is(target error) bool { return target == ErrEventTooLarge }

// Reader reads Server-Sent Events from a byte stream as the HTML standard
// parses them: lines end in LF, CRLF or CR; "data" lines of one event join
// with LF; lines starting with ":" are comments; a blank line ends an event.
// Frames and multi-byte characters may be split across reads anywhere.
type Reader struct {
	// OnLine, when set, is called with every line Next reads, blank ones
	// included, before Next interprets it; the slice is valid only during
	// the call. A caller checking the transport watches the framing with
	// it: comments, fields AG-UI gives no meaning to, an event the
	// stream's end cut short. What the stream ends with after its last
	// line end comes last, with Unended true.
	OnLine func(line []byte)

	lines   *bufio.Scanner
	buf     *[]byte // the scanner's first buffer, from the pool
	max     int
	data    []byte
	kept    *[]byte // where data came from, to go back to the pool
	hasData bool
	started bool
	unended bool  // the line read last is the stream's end inside a line
	skipLF  bool  // the last line ended with the last byte read, a CR
	err     error // the end, once reached: every later Next returns it
}

// Unended reports whether the line OnLine is told of is what the stream
// ended with after its last line end: no line, but a line cut short.
func (s *Reader) Unended() bool { return s.unended }

// Readers take their first line buffer from a pool and give it back, with
// the event buffer, at the stream's end: a stream judged per request
// (the proxy's) would otherwise make both anew each time.
var (
	lineBuffers  = sync.Pool{New: func() any { b := make([]byte, 0, startLine); return &b }}
	eventBuffers = sync.Pool{New: func() any { return new([]byte) }}
)

// startLine is the scanner's first buffer: most events fit.
const startLine = 4096

// maxPooled bounds an event buffer kept for the next reader.
const maxPooled = 64 << 10

// NewReader reads events of at most maxEvent bytes of data from r.
func NewReader(r io.Reader, maxEvent int) *Reader {
	lines := bufio.NewScanner(r)
	maxLine := maxEvent + len("data: \r\n")
	var buf *[]byte
	if maxLine >= startLine {
		buf = lineBuffers.Get().(*[]byte)
		lines.Buffer((*buf)[:0], maxLine) // a line over maxLine is refused however it arrives
	} else {
		lines.Buffer(make([]byte, 0, maxLine), maxLine)
	}
	// The scanner hands the split the whole unfinished line again after
	// every read: searched bytes are remembered, so that a line arriving in
	// k chunks is searched once, not k times (an 800 KB event in 16 KB
	// chunks took 11 ms natively, most of it searching).
	// A CR ends its line at once, as the standard's parser ends it, an
	// agent's next bytes perhaps seconds away; an LF right after it is the
	// same line end, skipped when it comes.
	s := &Reader{lines: lines, buf: buf, max: maxEvent}
	searched := 0
	lines.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		// The LF is skipped within this call: a split that gives no token
		// has the scanner read on (or stop, at the end) rather than split
		// what it holds again.
		skip := 0
		if s.skipLF && len(data) > 0 && data[0] == '\n' {
			skip = 1
		}
		rest := data[skip:]
		advance, line, err := scanLines(rest, searched, atEOF)
		s.unended = line != nil && advance == len(line) // no line end consumed: the stream ended inside it
		if advance == 0 && err == nil && len(rest) >= maxLine && rest[0] == ':' {
			return 0, nil, ErrCommentTooLarge // the scanner would say only bufio.ErrTooLong
		}
		s.skipLF = advance > 0 && advance == len(rest) && rest[advance-1] == '\r'
		searched = 0
		if advance == 0 {
			searched = len(rest)
		}
		return skip + advance, line, err
	})
	data := eventBuffers.Get().(*[]byte)
	s.data, s.kept = (*data)[:0], data
	return s
}

// Next returns the data of the next event. The slice is valid until the
// next call. At the end of the stream it returns io.EOF; an event not ended
// by a blank line is discarded, as the standard says.
func (s *Reader) Next() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	data, err := s.next()
	if err != nil {
		s.end(err)
	}
	return data, err
}

// end keeps err for every later Next and gives the buffers back: nothing
// reads them again (the data last returned was valid until this call).
func (s *Reader) end(err error) {
	s.err, s.lines = err, nil
	if s.buf != nil {
		*s.buf = (*s.buf)[:0]
		lineBuffers.Put(s.buf)
		s.buf = nil
	}
	if cap(s.data) <= maxPooled {
		*s.kept = s.data[:0]
		eventBuffers.Put(s.kept)
	}
	s.data, s.kept = nil, nil
}

func (s *Reader) next() ([]byte, error) {
	s.data, s.hasData = s.data[:0], false
	for s.lines.Scan() {
		line := s.lines.Bytes()
		if !s.started {
			s.started = true
			line = bytes.TrimPrefix(line, []byte("\uFEFF"))
		}
		if s.OnLine != nil {
			s.OnLine(line)
		}
		if len(line) == 0 {
			if s.hasData {
				return s.data[:len(s.data)-1], nil // drop the last joining LF
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		if string(field) != "data" {
			continue // event, id and retry mean nothing to AG-UI
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		if len(s.data)+len(value) > s.max {
			return nil, ErrEventTooLarge
		}
		s.data = append(append(s.data, value...), '\n')
		s.hasData = true
	}
	if err := s.lines.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, ErrEventTooLarge
		}
		return nil, err
	}
	return nil, io.EOF
}

// scanLines splits at LF, CRLF or a lone CR; data[:from] is known to hold
// neither. A CR at the end of the buffered data ends its line: an LF that
// follows is for the caller to skip.
func scanLines(data []byte, from int, atEOF bool) (advance int, token []byte, err error) {
	i := bytes.IndexAny(data[from:], "\r\n")
	if i >= 0 {
		i += from
	}
	switch {
	case i < 0 && atEOF && len(data) > 0:
		return len(data), data, nil
	case i < 0:
		return 0, nil, nil
	case data[i] == '\n':
		return i + 1, data[:i], nil
	case i+1 < len(data) && data[i+1] == '\n':
		return i + 2, data[:i], nil
	default:
		return i + 1, data[:i], nil
	}
}
