package agent

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/agent-analysis/agent-analysis/kit/rules"
)

// framing watches the SSE lines of a stream (sse.Reader.OnLine) for what
// the reader forgives: fields AG-UI gives no meaning to, data lines some
// clients skip, events over several lines, and an event the stream's end
// cut short, which the SSE standard discards (@ag-ui/client reads what is
// left as one more event: clients disagree).
type framing struct {
	comment func(text string, line int) // told of each comment line, and its number, as it is read

	lines      int // lines read so far
	eventStart int // the line the last event ended started on
	start      int // the line the event being read started on

	pending      int            // data lines of the event being read
	pendingBytes int            // their bytes
	others       map[string]int // lines of other fields, by field name
	unspaced     int            // "data:" lines with no space after the colon
	multiLine    int            // events of more than one data line
	cutShort     int            // the bytes of a line the stream's end cut, not a comment's
}

// line watches one line; unended, it is what the stream ended with after
// its last line end (sse.Reader.Unended): no line, and no field or comment.
func (f *framing) line(line []byte, unended bool) {
	if unended {
		if len(line) > 0 && line[0] != ':' { // (a byte-order mark alone is trimmed to nothing)
			f.cutShort = len(line)
		}
		return
	}
	f.lines++
	switch {
	case len(line) == 0:
		if f.pending > 1 {
			f.multiLine++
		}
		if f.pending > 0 {
			f.eventStart = f.start
		}
		f.pending, f.pendingBytes, f.start = 0, 0, 0
		return
	case line[0] == ':':
		text := bytes.TrimPrefix(line[1:], []byte(" "))
		f.comment(string(text), f.lines)
		return
	}
	if f.start == 0 {
		f.start = f.lines // a field of the event being read, data or not
	}
	field, value, _ := bytes.Cut(line, []byte(":"))
	if string(field) != "data" {
		if f.others == nil {
			f.others = map[string]int{}
		}
		f.others[string(field)]++
		return
	}
	if len(value) > 0 && value[0] != ' ' {
		f.unspaced++
	}
	f.pending++
	f.pendingBytes += len(bytes.TrimPrefix(value, []byte(" ")))
}

// cut is the finding for a stream that ended inside an event: after data
// lines with no blank line, or inside a line that is not a comment's.
func (f *framing) cut() *rules.Failure {
	switch {
	case f.cutShort > 0:
		return &rules.Failure{Rule: rules.SSEFraming, Text: fmt.Sprintf(
			"the stream ended inside an event: %d data line(s) and %d bytes of a line with no end, which the SSE standard discards (EventSource does; @ag-ui/client reads what is left as one more event)", f.pending, f.cutShort)}
	case f.pending > 0:
		return &rules.Failure{Rule: rules.SSEFraming, Text: fmt.Sprintf(
			"the stream ended inside an event: %d data line(s), %d bytes, with no blank line after them, which the SSE standard discards (EventSource does; @ag-ui/client reads what is left as one more event)", f.pending, f.pendingBytes)}
	}
	return nil
}

// notes are what is legal SSE but worth knowing.
func (f *framing) notes() []string {
	var out []string
	if len(f.others) > 0 {
		var fields []string
		for _, name := range slices.Sorted(maps.Keys(f.others)) {
			fields = append(fields, fmt.Sprintf("%q ×%d", name, f.others[name]))
		}
		out = append(out, "SSE fields AG-UI gives no meaning to, which clients ignore: "+strings.Join(fields, ", "))
	}
	if f.unspaced > 0 {
		out = append(out, fmt.Sprintf("%d data line(s) with no space after \"data:\": legal SSE, but some clients read only \"data: \" "+
			"(https://github.com/ag-ui-protocol/ag-ui/issues/771)", f.unspaced))
	}
	if f.multiLine > 0 {
		out = append(out, fmt.Sprintf("%d event(s) over several data lines: legal SSE, joined with line feeds", f.multiLine))
	}
	return out
}
