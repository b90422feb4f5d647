package server

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// maxBody bounds a RunAgentInput. A first run's is about 200 bytes; a
// resume carries the client's whole state, up to the engine's 4 MiB
// (agui.MaxStateBytes; the demo's 10,000 services are 1 to 4 MB), and its
// conversation.
const maxBody = 8 << 20

// maxScenario bounds a scenario's name, in characters.
const maxScenario = 64

// maxID bounds a thread or run id, in characters.
const maxID = 128

// runInput is the part of an AG-UI RunAgentInput this server acts on:
// once decodeRunInput returns it, its scenario names a script.
type runInput struct {
	ThreadID string
	RunID    string
	Scenario string
	Version  string   // the consumer's protocolVersion, "" for none
	Warnings []string // what was stripped, or the version it declared
	// Continuation is what a resume plays (resume.go); nil when the
	// input resumes nothing and the script plays from its start.
	Continuation *script.Continuation
}

// decodeRunInput reads and checks the whole request, so every failure is a
// Problem and a stream only starts on a valid request. The input is read
// as exactly as the client reads events (basic/run-input,
// basic/processing): names match as written (THREADID is not threadId),
// required fields and the kinds of known fields are checked, unrecognised
// members are removed with a warning. The body must arrive within
// timeout; main's shutdown cuts a read short. The scenario must be
// one of scripts, and a resume one its script can continue.
func decodeRunInput(w http.ResponseWriter, rc *http.ResponseController, r *http.Request, timeout time.Duration, scripts *library.Library) (runInput, *Problem) {
	if !isJSON(headerValue(r.Header, "Content-Type")) {
		return runInput{}, problem(http.StatusUnsupportedMediaType, "unsupported-media-type",
			"Unsupported media type", "Send the RunAgentInput as Content-Type: application/json.")
	}
	buf := bodies.get()
	body, large, err := readBody(w, rc, r, timeout, *buf) // a large body holds one of largeReads until its input is read
	defer func() {
		bodies.put(buf, body)
		if large {
			largeReads.give()
		}
	}()
	switch {
	case err == nil: // first: the cases below would allocate their targets for every request
	case errors.Is(err, errLargeReads):
		w.Header().Set("Connection", "close") // the rest of the body is not read
		w.Header().Set("Retry-After", "5")
		return runInput{}, problem(http.StatusServiceUnavailable, "too-many-large-inputs", "Too many large inputs",
			fmt.Sprintf("This server reads at most %d inputs of more than %d KiB (a resume's state) at once; retry shortly.", cap(largeReads), maxPresized>>10))
	case errors.As(err, new(*http.MaxBytesError)):
		return runInput{}, problem(http.StatusRequestEntityTooLarge, "body-too-large",
			"Request body too large", fmt.Sprintf("A RunAgentInput may be at most %d MiB.", maxBody>>20))
	case errors.Is(err, os.ErrDeadlineExceeded):
		w.Header().Set("Connection", "close")
		return runInput{}, problem(http.StatusRequestTimeout, "body-timeout", "Request body too slow",
			fmt.Sprintf("The whole request body must arrive within %s.", timeout))
	case err != nil:
		return runInput{}, problem(http.StatusBadRequest, "unreadable-body", "Unreadable request body", err.Error())
	}
	in, warnings, err := agui.ReadInput(body)
	if err != nil {
		return runInput{}, refusedInput(body, err)
	}
	req := runInput{ThreadID: in.ThreadID, RunID: in.RunID, Version: in.ProtocolVersion()}
	for _, w := range warnings {
		req.Warnings = append(req.Warnings, w.Text)
	}
	if p := checkIDs(req.ThreadID, req.RunID); p != nil {
		return runInput{}, p
	}
	if p := checkVersion(&req); p != nil {
		return runInput{}, p
	}
	if p := readScenario(in, &req.Scenario, scripts); p != nil {
		return runInput{}, p
	}
	if in.Answers() != nil { // a resume list, even an empty one
		s, _ := scripts.Lookup(req.Scenario)
		c, p := continuationFor(in, s, time.Now())
		if p != nil {
			return runInput{}, p
		}
		req.Continuation = c
	}
	return req, nil
}

// refusedInput is the problem with a body the engine refused: malformed
// JSON if the engine's reader of JSON refuses it (text not UTF-8, a lone
// surrogate, a name twice, nesting past jsonpatch.MaxDepth, as well as
// what no reader takes), else an invalid input.
func refusedInput(body []byte, err error) *Problem {
	if _, err := jsonpatch.Decode(body); err != nil {
		return problem(http.StatusBadRequest, "malformed-json", "Malformed RunAgentInput",
			"the run input is "+strings.Replace(err.Error(), "jsontext: ", "", 1))
	}
	var ie *agui.InputError // ReadInput's only kind of error
	if errors.As(err, &ie) {
		return invalid(ie.Field, ie.Error())
	}
	return invalid("", err.Error())
}

// isJSON reports whether a Content-Type is application/json, parameters
// (a charset) allowed.
func isJSON(contentType string) bool {
	if contentType == "application/json" { // what clients send: no parsing
		return true
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

// checkIDs: the thread and run ids must be there, not blank, and at most
// maxID characters. The detail names every id at fault, the field the
// first.
func checkIDs(threadID, runID string) *Problem {
	if plainID(threadID) && plainID(runID) {
		return nil
	}
	var field string
	var reasons []string
	for _, id := range [...]struct{ name, value string }{{"threadId", threadID}, {"runId", runID}} {
		var reason string
		switch {
		case id.value == "":
			reason = "is required"
		case strings.TrimFunc(id.value, blank) == "":
			reason = "must not be blank"
		case utf8.RuneCountInString(id.value) > maxID:
			reason = fmt.Sprintf("must be at most %d characters", maxID)
		default:
			continue
		}
		if field == "" {
			field = id.name
		}
		reasons = append(reasons, id.name+": "+reason)
	}
	if field == "" {
		return nil
	}
	return invalid(field, strings.Join(reasons, "; "))
}

// plainID is an id checkIDs passes, seen without reading it whole: at
// most maxID bytes (so at most as many characters), its first character
// one that is not blank.
func plainID(id string) bool {
	return id != "" && len(id) <= maxID && id[0] > ' ' && id[0] < utf8.RuneSelf
}

// blank is white space, and the ASCII separators (U+001C to U+001F) that
// print as nothing either.
func blank(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// checkVersion serves every version of the 1.x line and any declaration it
// cannot read, with a warning (basic/versioning: "A producer meeting a
// newer minor of a line it implements MUST serve the run"); it refuses
// only a major line it does not implement.
func checkVersion(req *runInput) *Problem {
	if req.Version == "" {
		return nil // a consumer from before the field
	}
	v, ok := agui.ParseVersion(req.Version)
	switch {
	case !ok:
		req.Warnings = append(req.Warnings, fmt.Sprintf("cannot interpret protocolVersion %q: served as a newer one", req.Version))
	case v.Major() > agui.Current.Major():
		return invalid("protocolVersion", fmt.Sprintf("protocolVersion: %s is of a major line this server does not implement; it speaks %s", req.Version, agui.Current))
	case agui.Current.Before(v):
		req.Warnings = append(req.Warnings, fmt.Sprintf("the client speaks protocolVersion %s, newer than this server's %s: served", req.Version, agui.Current))
	}
	return nil
}

// bodies keep the buffers request bodies are read into between requests.
// Nothing decodeRunInput returns refers to a body: ReadInput reads a copy
// of its own, and a runInput holds strings made from that copy.
var bodies = bufferPool{most: maxKept}

// maxKept bounds a body's buffer kept in bodies: every buffer readAll
// makes for a body of up to maxPresized bytes, whether it announced its
// length or not, is kept; a larger one, a resume's state, is left to the
// collector.
const maxKept = 2 * maxPresized

// maxPresized bounds the room readAll makes for a body before its bytes
// arrive: a client announcing megabytes and sending none holds no more.
const maxPresized = 16 << 10

// largeReads are the bodies of more than maxPresized bytes being read and
// checked at once. Such a body (a resume carrying the client's state, the
// one large input) holds up to maxBody a few times over until its input
// is read; a crowd of them is turned away (503) rather than held. They are
// the process's, as the memory they bound is.
var largeReads = newSlots(maxLargeReads)

const maxLargeReads = 8

// errLargeReads is a large body that found every one of largeReads taken.
var errLargeReads = errors.New("too many large inputs at once")

// counted is a body that may be large, which takes one of largeReads once
// more than maxPresized of its bytes have arrived: a client announcing a
// large body and sending none holds no place.
type counted struct {
	io.Reader
	n     int
	large bool
}

func (c *counted) Read(p []byte) (int, error) {
	n, err := c.Reader.Read(p)
	if c.n += n; c.n > maxPresized && !c.large {
		if c.large = largeReads.take(); !c.large {
			return n, errLargeReads
		}
	}
	return n, err
}

// readBody reads the bounded body, into b, under a read deadline; a body
// of more than maxPresized bytes takes one of largeReads (large: it did).
// Once the body has been read to its end, net/http clears the deadline
// for the stream.
func readBody(w http.ResponseWriter, rc *http.ResponseController, r *http.Request, timeout time.Duration, b []byte) (_ []byte, large bool, err error) {
	// A server whose ReadTimeout bounds the whole request within timeout
	// has set a tighter deadline already: another would cost a timer's
	// move per request, which showed at 128 streams at once.
	if srv, ok := r.Context().Value(http.ServerContextKey).(*http.Server); !ok || srv.ReadTimeout <= 0 || srv.ReadTimeout > timeout {
		if err := rc.SetReadDeadline(time.Now().Add(timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
			return b[:0], false, err
		}
	}
	// At shutdown main ends every connection's reads, once it has ended
	// the request contexts. net/http may have set this request's deadline
	// after that cut: then it is cut again here. Only what net/http has
	// read ahead of the handler is still read: a read past its deadline
	// fails before it asks the socket, whatever has arrived there.
	if r.Context().Err() != nil {
		rc.SetReadDeadline(time.Now())
	}
	switch {
	case r.ContentLength > maxBody:
		// Refused before a byte is read; the connection closes.
		w.Header().Set("Connection", "close")
		return b[:0], false, &http.MaxBytesError{Limit: maxBody}
	case r.ContentLength < 0 || r.ContentLength > maxPresized:
		// Bounded (the connection closed after a body too large: a body
		// of a length announced within bounds needs no bound of ours,
		// net/http reads no byte past it), and given a place in
		// largeReads once its bytes are past maxPresized.
		c := &counted{Reader: http.MaxBytesReader(w, r.Body, maxBody)}
		b, err = readAll(c, r.ContentLength, b)
		return b, c.large, err
	}
	b, err = readAll(r.Body, r.ContentLength, b)
	return b, false, err
}

// readAll is io.ReadAll reusing b's storage (what b holds is dropped),
// made room in for the size the body announces (one more byte, to meet
// its end) up to maxPresized, not from 512 bytes up.
func readAll(body io.Reader, size int64, b []byte) ([]byte, error) {
	n := int64(512) // io.ReadAll's start, for a body of unknown length
	if size >= 0 {
		n = min(size, maxPresized) + 1
	}
	b = slices.Grow(b[:0], int(n))
	for {
		n, err := body.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		case len(b) == cap(b):
			b = append(b, 0)[:len(b)] // room for more
		}
	}
}

// DefaultScenario is what a request that names no scenario plays: a
// stock client's first request carries no forwardedProps, or empty ones.
const DefaultScenario = "normal"

// readScenario takes forwardedProps.scenario: a string naming one of
// scripts, or DefaultScenario when forwardedProps is absent or names none.
// A blank or over-long name is refused as an unknown one is.
func readScenario(in agui.Input, scenario *string, scripts *library.Library) *Problem {
	value, present, err := in.ForwardedProp("scenario")
	switch {
	case err != nil:
		return invalid("forwardedProps.scenario", "forwardedProps must be an object, naming a scenario or none")
	case !present:
		*scenario = DefaultScenario
		return nil
	}
	var ok bool
	if *scenario, ok = value.(string); !ok {
		return invalid("forwardedProps.scenario", "forwardedProps.scenario: must be a string")
	}
	if _, ok := scripts.Lookup(*scenario); !ok {
		name := *scenario
		if utf8.RuneCountInString(name) > maxScenario {
			name = string([]rune(name)[:maxScenario]) + "…"
		}
		p := problem(http.StatusUnprocessableEntity, "unknown-scenario", "Unknown scenario",
			fmt.Sprintf("forwardedProps.scenario %q is not one of %s.", name, strings.Join(scripts.Names(), ", ")))
		p.Field = "forwardedProps.scenario"
		return p
	}
	return nil
}

func invalid(field, detail string) *Problem {
	p := problem(http.StatusBadRequest, "invalid-input", "Invalid RunAgentInput", detail)
	p.Field = field
	return p
}
