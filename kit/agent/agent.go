// Package agent is a native AG-UI client for testing a live agent: it
// posts one RunAgentInput, reads the SSE answer noting when each frame
// arrived, has the AG-UI 1.x consumer engine judge every event as it
// comes, and watches the transport: the status and content type, the SSE
// framing, silences, how the stream ended. record and check -url are
// built on it, and the proxy reads what passes it with its Watch; the
// demo's own runtime is app/effects.
package agent

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// DefaultTimeout bounds an exchange when the Request says nothing.
const DefaultTimeout = 60 * time.Second

// Request is one run to ask a live agent for.
type Request struct {
	URL   string
	Input agui.Input // what is sent (Input.Request), and what the engine judges the stream against
	// Header holds headers to send besides Content-Type, Accept and
	// Accept-Encoding (a token, an API key), or in their place. Their
	// values are sent and never reported.
	Header http.Header
	// Binary asks for AG-UI's binary transport (Accept:
	// application/vnd.ag-ui.event+proto) rather than SSE. The stream is
	// read as the answer's content type says, whichever was asked for.
	Binary bool
	// Timeout bounds the whole exchange, from sending the request to the
	// stream's end: an agent that never answers, or streams forever, is
	// cut there. 0 means DefaultTimeout.
	Timeout time.Duration
	// Keep keeps every frame, for record; a stream over script.MaxBytes
	// is then cut (TooLong).
	Keep bool
	// Continues is the interrupted run this one resumes (Resume): the
	// engine warns when the run leaves an interrupted tool call unanswered.
	Continues agui.Pending
	// Stop, when set, aborts the request as a user pressing Stop does
	// (Stop.Events events in, or Stop.After after it was sent): the run
	// is judged on what came until then, and its truncation is no
	// failure.
	Stop *Stop

	dial dialer // tests connect in memory, where a synctest bubble's clock runs
}

type dialer = func(ctx context.Context, network, addr string) (net.Conn, error)

// Exchange is what one run did.
type Exchange struct {
	Sent      []byte // the request body
	Transport Transport
	Frames    []script.Frame  // every event and comment, in order (with Request.Keep)
	Failures  []rules.Failure // what failed at the transport
	Notes     []string        // legal, but worth knowing: SSE fields AG-UI ignores, and such
	// ReadToEnd is true when the body was read to its end, a stream that
	// ended inside an event or frame among them: a client saw all of it.
	ReadToEnd bool

	// The engine's verdict.
	Violation *agui.Violation // the first rule the stream broke
	// Truncated is why the stream ended short (agui.Consumer.End),
	// with the connection's error when it broke; "" when it did not, or
	// when a failure above says why (a timeout, the stream cut).
	Truncated string
	Warnings  []agui.Warning

	// Interrupted is what the run left open when it ended with the
	// interrupt outcome; nil when it did not. Resume answers it.
	Interrupted *agui.Pending
	// Stopped is when Request.Stop aborted the run; nil when the stream
	// ended, or failed, first.
	Stopped *Stopped
	// Runs are the stream's runs as the engine last judged them: how
	// each ended (an agent's own error report, RUN_ERROR, among them).
	Runs    []agui.Run
	next    agui.Input // what a run that continues this one starts from
	nextErr error      // why there is none
}

// The causes a run's context ends with, besides its caller's.
var (
	errTimeout = errors.New("the timeout passed")
	errTooLong = errors.New("more than a script may hold")
	errStopped = errors.New("stopped as asked")
)

// Run asks the agent for one run and reads the stream to its end. Every
// failure is in the Exchange; Run itself cannot fail.
func Run(ctx context.Context, r Request) Exchange {
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	if r.Stop != nil && r.Stop.After > 0 {
		timer := time.AfterFunc(r.Stop.After, func() { stop(errStopped) })
		defer timer.Stop()
	}
	start := time.Now()
	run := &reading{Request: r, ex: Exchange{Transport: Transport{URL: RedactURL(r.URL), Sent: start}}, start: start, timeout: timeout, stop: stop}
	run.exchange(ctx)
	if run.ex.Transport.Took == 0 { // no stream was read, which sets it at its end
		run.ex.Transport.Took = time.Since(run.start)
	}
	return run.ex
}

// exchange posts the input and reads the answer.
func (run *reading) exchange(ctx context.Context) {
	body, _, err := run.Input.Request("")
	if err != nil {
		run.fail(rules.Input, "the input cannot be sent: %v", err)
		return
	}
	consumer, err := agui.NewConsumer(run.Input, agui.Options{Continues: run.Continues})
	if err != nil {
		run.fail(rules.Input, "the input cannot be judged against: %v", err)
		return
	}
	run.ex.Sent = body
	resp, err := post(ctx, run.URL, body, run.accept(), run.Header, run.dial)
	if err != nil {
		run.ended(ctx, fmt.Errorf("the request failed: %w", err))
		return
	}
	defer resp.Body.Close()
	// A 101's body is the raw connection, which the request's context does
	// not reach: no read of any body may outlast the run.
	defer context.AfterFunc(ctx, func() { resp.Body.Close() })()
	run.ex.Transport.Status, run.ex.Transport.ContentType = resp.StatusCode, resp.Header.Get("Content-Type")
	run.ex.Transport.Answered = time.Since(run.start)
	run.lastArrival = run.ex.Transport.Answered // a silence is measured from the answer's headers
	stream, encoded := Decoded(arrivals{resp.Body, run}, resp.Header.Get("Content-Encoding"))
	if f := checkAnswer(resp, stream); f != nil {
		run.ex.Failures = append(run.ex.Failures, *f)
		return
	}
	if f := InexactBinaryType(resp.Header.Get("Content-Type")); f != nil {
		run.ex.Failures = append(run.ex.Failures, *f) // and the stream is read as what it is
	}
	if encoded != nil {
		run.ex.Transport.Took = time.Since(run.start)
		run.fail(rules.Unjudged, "%v", encoded)
		return
	}
	if run.Stop != nil && run.Stop.After == 0 && run.Stop.Events == 0 {
		run.stop(errStopped) // at the answer's headers, before any event
	}
	run.read(ctx, stream, consumer)
}

// post sends the input as a client does. Each run has a connection of its
// own, closed with it, and follows no redirect: AG-UI posts once. It goes
// through the transport itself, as http.Client would, but for a
// redirect's Location, which the client refuses before its status is
// seen when it does not parse.
func post(ctx context.Context, url string, body []byte, accept string, header http.Header, dial dialer) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", accept)
	req.Header.Set("Accept-Encoding", "gzip") // as the client asks, but unzipped by Decoded, which tells a cut gzip from a broken connection
	if u := req.URL.User; u != nil {
		password, _ := u.Password()
		req.SetBasicAuth(u.Username(), password)
	}
	for name, values := range header { // as curl -H: a header given replaces ours
		req.Header[name] = values
	}
	if host := req.Header.Get("Host"); host != "" { // the client sends req.Host, not a Host header
		req.Host = host
		req.Header.Del("Host")
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.DisableKeepAlives, transport.DisableCompression = true, true
	if dial != nil {
		transport.DialContext = dial
	}
	resp, err := transport.RoundTrip(req)
	if tlsErr := (tls.RecordHeaderError{}); errors.As(err, &tlsErr) && string(tlsErr.RecordHeader[:]) == "HTTP/" {
		err = http.ErrSchemeMismatch
	}
	return resp, err
}

// accept is the Accept header the request sends.
func (r Request) accept() string {
	if r.Binary {
		return proto.MediaType
	}
	return "text/event-stream"
}

// Stop is when to abort a run, as a user pressing Stop does: after
// Events events (0: as soon as the answer's headers come), or, when After
// is set, that long after the request was sent.
type Stop struct {
	Events int
	After  time.Duration
}

// Stopped is what a run had sent when Request.Stop aborted it.
type Stopped struct {
	Events int           // the events it had sent
	At     time.Duration // since the request was sent
	Types  []string      // their types, in order (the first MaxStoppedTypes)
}

// MaxStoppedTypes bounds the event types Stopped keeps.
const MaxStoppedTypes = 20
