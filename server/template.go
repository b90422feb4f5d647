package server

import (
	"bytes"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// A script's stream is the same for every request but for its ids
// (script.Script.ForRequest), so it is framed once, when the server
// starts, with the places the ids go cut out: a request only splices its
// own in. ForRequest stays the one definition of the bytes: a template is
// its output for placeholder ids, checked against its output for other
// ids before it is used.

// frame is one of a script's frames in SSE framing, with the request's
// ids cut out.
type frame struct {
	after time.Duration
	kind  string // the event's type, for the debug log; "" for a comment
	text  []byte
	holes []hole // where the ids go, in order
	// The frame in the binary transport (binary.go): whole, when it has no
	// holes, or as a template to fill; nil when it is a comment, or each
	// request must encode it.
	bin      []byte
	template *proto.Template
}

// hole is where an id goes: its JSON-escaped text, without quotes (an
// interrupt id bound to the thread holds the thread id inside a string).
type hole struct {
	at  int  // an offset into the frame's text
	run bool // the run id; else the thread id
}

// ids are a request's thread and run ids as they go into a frame: as
// they read inside JSON strings, and as they are, for the binary
// transport.
type ids struct{ thread, run, threadText, runText []byte }

// escapedIDs are the ids as they read inside JSON strings: quoted, in one
// buffer, without their quotes; and as they are. (A request's ids are
// valid UTF-8: the engine read them.)
func escapedIDs(threadID, runID string) ids {
	// Room for both, twice over, with their quotes: as much as ids that
	// need no escape take, in one allocation.
	b := make([]byte, 0, 2*(len(threadID)+len(runID))+4)
	b, _ = jsontext.AppendQuote(b, threadID)
	n := len(b)
	b, _ = jsontext.AppendQuote(b, runID)
	m := len(b)
	b = append(append(b, threadID...), runID...)
	return ids{thread: b[1 : n-1], run: b[n+1 : m-1], threadText: b[m : m+len(threadID)], runText: b[m+len(threadID):]}
}

// appendTo adds the frame, with these ids, to b.
func (f *frame) appendTo(b []byte, id ids) []byte {
	at := 0
	for _, h := range f.holes {
		b = append(b, f.text[at:h.at]...)
		if h.run {
			b = append(b, id.run...)
		} else {
			b = append(b, id.thread...)
		}
		at = h.at
	}
	return append(b, f.text[at:]...)
}

// framesOf frames a script's frames as they are, with no holes: a
// resume's continuation, made for its request.
func framesOf(sent []script.Frame) []frame {
	out := make([]frame, len(sent))
	for i, f := range sent {
		out[i] = frame{after: f.After, kind: f.Type, text: appendFrame(nil, f)}
	}
	return out
}

// Placeholder ids: private-use characters, which JSON leaves unescaped and
// scripts have no reason to hold. The check ids need escaping, so that
// the check also covers how an id is spliced in.
const (
	placeholderThread = "\ue000thread\ue000"
	placeholderRun    = "\ue000run\ue000"
	checkThread       = "t\"\\<\u2028é"
	checkRun          = "r\t/\U0001F600"
)

// newTemplate frames s's stream for any request, or reports that its
// placeholder ids could not be told from its own text (then each request
// frames ForRequest's frames itself).
func newTemplate(s script.Script) ([]frame, bool) {
	sent := s.ForRequest(placeholderThread, placeholderRun)
	frames := make([]frame, len(sent))
	for i, f := range sent {
		text, holes := cutPlaceholders(appendFrame(nil, f))
		frames[i] = frame{after: f.After, kind: f.Type, text: text, holes: holes}
	}
	var got, want []byte
	check := escapedIDs(checkThread, checkRun)
	for i, f := range s.ForRequest(checkThread, checkRun) {
		got = frames[i].appendTo(got, check)
		want = appendFrame(want, f)
	}
	return frames, bytes.Equal(got, want)
}

// cutPlaceholders is text without its placeholder ids, and where they were.
func cutPlaceholders(text []byte) ([]byte, []hole) {
	var out []byte
	var holes []hole
	for {
		t, r := bytes.Index(text, []byte(placeholderThread)), bytes.Index(text, []byte(placeholderRun))
		if t < 0 && r < 0 {
			return append(out, text...), holes
		}
		at, skip, run := t, len(placeholderThread), false
		if t < 0 || (r >= 0 && r < t) {
			at, skip, run = r, len(placeholderRun), true
		}
		out = append(out, text[:at]...)
		holes = append(holes, hole{at: len(out), run: run})
		text = text[at+skip:]
	}
}

// template is a script's frames, framed once, and why the binary
// transport cannot carry them (nil when it can).
type template struct {
	frames []frame
	binary error
}

// templates are every script's, by name; a script whose template failed
// its check has none, and neither has a recording whose interrupts expire:
// their times are made for each request (script.Script.ServedAt).
type templates map[string]template

func newTemplates(scripts *library.Library) templates {
	out := templates{}
	for _, name := range scripts.Names() {
		s, _ := scripts.Lookup(name)
		if s.Expires() {
			continue
		}
		if frames, ok := newTemplate(s); ok {
			out[name] = template{frames, encodeBinary(frames, escapedIDs(placeholderThread, placeholderRun))}
		}
	}
	return out
}

// forRequest is what req's stream sends: its frames, the ids for their
// holes, and why the binary transport cannot carry them (nil when it
// can).
func (t templates) forRequest(scripts *library.Library, req runInput) ([]frame, ids, error) {
	if tp, ok := t[req.Scenario]; ok && req.Continuation == nil {
		return tp.frames, escapedIDs(req.ThreadID, req.RunID), tp.binary
	}
	s, _ := scripts.Lookup(req.Scenario) // decodeRunInput checked it exists
	var sent []script.Frame
	if req.Continuation != nil {
		sent = s.Continue(*req.Continuation, req.ThreadID, req.RunID)
	} else {
		sent = s.ForRequest(req.ThreadID, req.RunID)
	}
	frames := framesOf(s.ServedAt(sent, time.Now()))
	return frames, ids{}, encodeBinary(frames, ids{})
}
