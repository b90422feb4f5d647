package proxy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// judging is one run as the proxy passes it: the handler tells it what
// the upstream answered (answered), each read of the body (passed) and
// how the stream ended (ended); its judge goroutine does the rest.
type judging struct {
	p        *Proxy
	run      Run
	headers  []string    // the request's header names, for the observer
	watcher  RunObserver // nil without an observer
	observed bool        // the observer was told of the run
	start    time.Time
	body     *teeBody
	answer   chan answer // one, from the handler
	stream   *backlog
	ref      *runRef       // this run, for the next on its thread
	placed   chan struct{} // closed once the run has its place on its thread (or has none)
	done     chan struct{}
	outcome  outcome // set before done closes

	consumer  *agui.Consumer
	violation *agui.Violation // the first rule the stream broke
	whole     bool            // the stream was judged to its end
	frames    []script.Frame  // for the log
	kept      int             // their bytes, as a script writes them
	keep      bool
	last      time.Time // when the last frame arrived
}

// answer is what the upstream answered, or why it did not.
type answer struct {
	status int
	header http.Header
	at     time.Time
	err    error // no answer came: why
	ctx    error // the request's context's cause, when it had ended
	broken bool  // err is the client's body breaking off
	sent   bool  // and the agent had been sent part of the request
}

// outcome is how a stream ended, as the handler saw it.
type outcome struct {
	read        error // io.EOF for a whole stream
	write       error // writing to the client failed
	ctx         error // the request's context's cause, when it had ended
	body        error // the client's body broke off, and the answer with it
	at          time.Time
	bytes       int64
	lastArrival time.Time
	longestGap  time.Duration
}

// left says the client went away with every byte it was sent written:
// not a shutdown, nor a client that stopped reading.
func (o outcome) left() bool {
	return o.write == nil && o.ctx != nil && !errors.Is(o.ctx, ErrShutdown)
}

// startJudging judges a run whose request body (nil for none) is body.
func (p *Proxy) startJudging(r *http.Request, body io.ReadCloser, start time.Time) *judging {
	j := &judging{
		p: p, start: start, body: newTeeBody(body), answer: make(chan answer, 1),
		stream: newBacklog(MaxBacklog), placed: make(chan struct{}), done: make(chan struct{}), keep: p.cfg.Log != "",
		ref: &runRef{streamDone: make(chan struct{}), done: make(chan struct{})},
	}
	j.run.Method, j.run.Path = r.Method, r.URL.Path
	if p.cfg.Observer != nil {
		j.headers = headerNames(r.Header)
	}
	if r.ContentLength == 0 {
		j.body.finish(true, nil)
	}
	p.judges.Add(1)
	p.dispatch(j)
	return j
}

// maxIdleJudges bounds the judge workers kept waiting between runs.
const maxIdleJudges = 64

// dispatch hands a run to an idle judge worker, or to a new one. A worker
// goes on to the next run: the engine's reading needs a deeper stack than
// a new goroutine's, and growing one for every run (copying it, twice)
// cost a tenth of the proxy's CPU per stream.
func (p *Proxy) dispatch(j *judging) {
	select {
	case p.work <- j:
	default:
		p.workers.Add(1)
		go p.worker(j)
	}
}

// worker judges runs until none comes and Close ends it, or enough others
// wait already.
func (p *Proxy) worker(j *judging) {
	defer p.workers.Done()
	for {
		j.judge()
		if p.idle.Add(1) > maxIdleJudges {
			p.idle.Add(-1)
			return
		}
		select {
		case j = <-p.work:
			p.idle.Add(-1)
		case <-p.stop:
			p.idle.Add(-1)
			return
		}
	}
}

func (j *judging) answered(a answer) {
	if j != nil {
		j.answer <- a
	}
}

func (j *judging) passed(p []byte, at time.Time) {
	if j != nil {
		j.stream.put(p, at)
	}
}

func (j *judging) ended(o outcome) {
	if j == nil {
		return
	}
	j.outcome = o
	if o.write == nil && errors.Is(o.read, io.EOF) || o.left() {
		// What the client got ends here: the judge reads it as a stream's
		// end, so that an event or frame it left half sent is a cut.
		j.stream.close(io.EOF)
	} else {
		j.stream.close(errCut)
	}
	close(j.ref.streamDone)
	close(j.done)
	// A client that reads one run to its end before sending the next on
	// the thread must see them judged in that order: the run takes its
	// place on its thread before the client can see its stream end. The
	// judge needs only the request body for that; a body the transport
	// still holds (an upstream that answered without reading it) is not
	// waited for.
	select {
	case <-j.body.done:
		<-j.placed
	default:
	}
}

// errCut is the judge's end of a stream that did not end whole: the
// outcome says how.
var errCut = errors.New("the stream was cut")

// judge judges the run: its input, then the answer and the stream as
// they pass, then the end.
func (j *judging) judge() {
	defer j.p.judges.Done()
	in, opts := j.input()
	a := <-j.answer
	j.run.Status = a.status
	if a.header != nil {
		j.run.ContentType = a.header.Get("Content-Type")
	}
	if a.err != nil {
		<-j.done
		j.noAnswer(a)
	} else {
		j.run.Answered = a.at.Sub(j.start)
		j.readAnswer(a, in, opts)
		<-j.done
	}
	o := j.outcome
	j.run.Bytes, j.run.LongestGap = o.bytes, o.longestGap
	j.run.Took = o.at.Sub(j.start)
	j.finish()
}

// input reads the run input the client sent, exactly, and checks its
// resume list against the thread's previous run. A refused input is
// judged against as none: any run is accepted.
func (j *judging) input() (in agui.Input, opts agui.Options) {
	defer func() {
		j.observe(in)
		j.place()
	}()
	data, whole, over, err := j.body.result()
	switch {
	case over:
		j.note("the input is over %d MiB: not judged", MaxInput>>20)
		return agui.Input{}, opts
	case !whole && err != nil:
		j.note("the input did not reach the agent whole (%v): not judged", err)
		return agui.Input{}, opts
	case !whole:
		j.note("the input did not reach the agent whole: not judged")
		return agui.Input{}, opts
	}
	j.run.sent = data
	in, warnings, err := agui.ReadInput(data)
	if err != nil {
		field, reason := "", err.Error()
		var ie *agui.InputError
		if errors.As(err, &ie) {
			field, reason = ie.Field, ie.Reason
		}
		text := reason
		if field != "" {
			text = field + ": " + reason
		}
		j.fail(rules.Failure{Rule: rules.Input, Field: field, Text: "the input is not a 1.0 RunAgentInput: " + text})
		return agui.Input{}, opts
	}
	for _, w := range warnings {
		j.note("input: %s", w.Text)
	}
	j.run.ThreadID, j.run.RunID = in.ThreadID, in.RunID
	if in.ThreadID == "" {
		return in, opts
	}
	j.ref.thread = in.ThreadID
	prev := j.p.threads.begin(in.ThreadID, j.ref)
	j.observe(in)
	j.place()
	answers := in.Answers()
	if prev == nil {
		if len(answers) > 0 {
			j.note("resume of %d entries on thread %q: this proxy saw no earlier run of the thread (it ran before the proxy started, or the thread was forgotten, past the last %d): not checked",
				len(answers), in.ThreadID, j.p.cfg.Threads)
		}
		return in, opts
	}
	if !j.settled(prev) {
		if len(answers) > 0 {
			j.note("resume sent while run %q of the thread was still streaming: not checked", prev.runID)
		}
		return in, opts
	}
	switch {
	case !prev.judged:
		if len(answers) > 0 {
			j.note("resume of run %q, whose stream could not be judged: not checked", prev.runID)
		}
	case len(answers) > 0:
		if err := prev.pending.Check(in, time.Now()); err != nil {
			var re *agui.ResumeError
			field, reason := "", err.Error()
			if errors.As(err, &re) {
				field, reason = re.Field, re.Reason
			}
			j.fail(rules.Failure{Rule: rules.Resume, Field: field, Text: fmt.Sprintf("the resume does not answer run %q: %s: %s", prev.runID, field, reason)})
		} else if prev.open {
			opts.Continues = prev.pending
		}
	case prev.open:
		j.note("run %q of the thread ended interrupted; this run carries no resume list: its %d interrupts go unanswered",
			prev.runID, len(prev.pending.Interrupts))
	}
	return in, opts
}

// observe tells the observer of the run, once, before the run takes its
// place: a client that reads one run to its end before it sends the next
// sees the inspector number them in that order.
func (j *judging) observe(in agui.Input) {
	o := j.p.cfg.Observer
	if o == nil || j.observed {
		return
	}
	j.observed = true
	where := agent.RedactURL(j.p.join((&url.URL{Path: j.run.Path}).EscapedPath(), "").String())
	j.watcher = o.Begin(Begin{Method: j.run.Method, Path: j.run.Path, URL: where, Started: j.start, ThreadID: j.run.ThreadID, RunID: j.run.RunID,
		Input: j.run.sent, Headers: j.headers, Resume: len(in.Answers()) > 0})
}

// place says the run has its place on its thread, or will have none.
func (j *judging) place() {
	select {
	case <-j.placed:
	default:
		close(j.placed)
	}
}

// settled waits for the thread's previous run to be judged, when its
// stream has ended (or ends before this one): its judge has little left
// to do. A previous run still streaming when this one ends is not waited
// for.
func (j *judging) settled(prev *runRef) bool {
	select {
	case <-prev.streamDone:
	case <-j.ref.streamDone:
		select {
		case <-prev.streamDone:
		default:
			return false
		}
	}
	<-prev.done
	return true
}

// noAnswer is a run the upstream never answered.
func (j *judging) noAnswer(a answer) {
	took := a.at.Sub(j.start).Round(time.Millisecond)
	switch {
	case errors.Is(a.ctx, ErrShutdown):
		j.fail(rules.Failure{Rule: rules.Interrupted, Text: fmt.Sprintf("the proxy shut down after %s, before the agent answered", took)})
	case a.ctx != nil:
		j.run.Cancelled = fmt.Sprintf("the client cancelled after %s, before the agent answered", took)
	case a.broken && a.sent:
		j.run.Cancelled = fmt.Sprintf("the client's request broke off after %s (%v), before the agent answered: the agent's request was cut", took, a.err)
	case a.broken:
		j.run.Cancelled = fmt.Sprintf("the client's request broke off after %s (%v): the agent was sent nothing", took, a.err)
	case errors.Is(a.err, errNoStatus):
		j.fail(rules.Failure{Rule: rules.HTTPStatus, Text: a.err.Error() + "; the client got 502"})
	default:
		j.fail(rules.Failure{Rule: rules.Unreachable, Text: fmt.Sprintf("the agent could not be reached: %v; the client got 502", a.err)})
	}
}

// readAnswer judges what the upstream answered: an event stream is read
// to its end; anything else is reported from its first bytes.
func (j *judging) readAnswer(a answer, in agui.Input, opts agui.Options) {
	defer j.stream.stop()
	mt, _, _ := mime.ParseMediaType(a.header.Get("Content-Type"))
	// Unzipped as it is read: an answer refused below is quoted unzipped
	// too, as check -url quotes it.
	body, encoded := agent.Decoded(j.stream, a.header.Get("Content-Encoding"))
	switch {
	case a.status >= 300 && a.status < 400:
		j.fail(rules.Failure{Rule: rules.HTTPStatus, Text: fmt.Sprintf("the agent answered %d %s, a redirect to %q: passed to the client, not followed (AG-UI posts once)",
			a.status, http.StatusText(a.status), agent.RedactURL(a.header.Get("Location")))})
		return
	case a.status < 200 || a.status >= 300:
		j.fail(rules.Failure{Rule: rules.HTTPStatus, Text: fmt.Sprintf("the agent answered %d %s, not 2xx: %s", a.status, http.StatusText(a.status), agent.Excerpt(body, mt))})
		return
	case mt != "text/event-stream" && mt != proto.MediaType:
		j.fail(rules.Failure{Rule: rules.ContentType, Text: fmt.Sprintf("the answer is %q, not text/event-stream or %s: %s", a.header.Get("Content-Type"), proto.MediaType, agent.Excerpt(body, mt))})
		return
	case encoded != nil:
		j.fail(rules.Failure{Rule: rules.Unjudged, Text: encoded.Error()})
		return
	}
	if f := agent.InexactBinaryType(a.header.Get("Content-Type")); f != nil {
		j.fail(*f) // and the stream is judged as what it is
	}
	body = trailerless{body, j}
	consumer, err := agui.NewConsumer(in, opts)
	if err != nil {
		j.fail(rules.Failure{Rule: rules.Input, Text: "the input cannot be judged against: " + err.Error()})
		return
	}
	j.consumer = consumer
	j.last = j.start
	watch := agent.Watch
	if mt == proto.MediaType {
		watch = agent.WatchBinary
	}
	j.readStream(body, watch)
}

// readStream has the engine judge each event as it passes, and watches
// the framing, as check -url does (agent.Watch).
func (j *judging) readStream(body io.Reader, watch func(io.Reader, *agui.Consumer, agent.FrameFunc) agent.Watched) {
	w := watch(body, j.consumer, j.frame)
	j.run.Events, j.run.Comments = w.Events, w.Comments
	j.violation = w.Violation
	<-j.done // how the stream ended, whatever the reader saw
	o := j.outcome
	for _, warning := range w.Warnings {
		j.note("warning (%s): %s", warning.Rule.ID(), warning.Text)
	}
	if w.Dropped > 0 {
		j.note("%d more warnings", w.Dropped)
	}
	j.run.Notes = append(j.run.Notes, w.Notes...)
	if v := j.violation; v != nil {
		j.fail(rules.Failure{Rule: v.Rule.ID(), Event: v.Index + 1, Text: v.Reason})
	}
	cut := false
	switch {
	case w.OverBound() != "":
		j.fail(rules.Failure{Rule: agui.Limit.ID(), Event: j.run.Events + 1,
			Text: fmt.Sprintf("%s is over the engine's %d MiB bound: the bytes passed, judging stopped there", w.OverBound(), agui.MaxEventBytes>>20)})
		return
	case w.Framing != nil:
		j.fail(*w.Framing)
		return
	case agent.NotGzip(w.Err):
		j.fail(rules.Failure{Rule: rules.Unjudged, Text: fmt.Sprintf("the answer is not the gzip it says it is: %v (the bytes all passed)", w.Err)})
		return
	case errors.Is(w.Err, errBehind):
		j.fail(rules.Failure{Rule: rules.Unjudged, Text: fmt.Sprintf("the stream ran %d MiB ahead of the judge: judged its first %d events, the bytes all passed", MaxBacklog>>20, j.run.Events)})
		return
	case o.write != nil && errors.Is(o.write, os.ErrDeadlineExceeded):
		j.fail(rules.Failure{Rule: rules.Stalled, Text: fmt.Sprintf("the client read nothing for %s: dropped after %d events, the agent's request cancelled", j.p.cfg.WriteTimeout, j.run.Events)})
		return
	case o.left() && j.allEnded(w):
		// The client left with every byte passed and every run ended, as
		// one that closes on RUN_FINISHED does while the agent holds the
		// stream open: it cancelled nothing, and the stream was judged
		// whole (an interrupt it ended on is remembered for the resume).
		j.whole = true
	case o.write != nil || (o.ctx != nil && !errors.Is(o.ctx, ErrShutdown)):
		j.run.Cancelled = fmt.Sprintf("the client cancelled after %d events, as a user pressing Stop does: the agent's request was cancelled too", j.run.Events)
		return
	case o.ctx != nil:
		j.fail(rules.Failure{Rule: rules.Interrupted, Text: fmt.Sprintf("the proxy shut down after %d events", j.run.Events)})
		return
	case o.body != nil:
		j.run.Cancelled = fmt.Sprintf("the client's request broke off after %d events (%v): the agent's request was cut, and its answer with it", j.run.Events, o.body)
		return
	case errors.Is(o.read, io.EOF):
		j.whole = true
		if f := w.Cut; f != nil {
			j.fail(rules.Failure{Rule: f.Rule, Text: f.Text})
		}
	default:
		cut = true
	}
	switch {
	case w.Truncated != "" && cut:
		j.fail(rules.Failure{Rule: rules.Truncated, Text: fmt.Sprintf("%s (the connection broke: %v)", w.Truncated, o.read)})
	case w.Truncated != "":
		j.fail(rules.Failure{Rule: rules.Truncated, Text: w.Truncated})
	case !cut:
	case j.violation != nil && w.ActiveRun != "":
		j.fail(rules.Failure{Rule: rules.StreamBroken, Text: fmt.Sprintf("the connection broke while run %q was active: %v", w.ActiveRun, o.read)})
	case j.violation != nil:
		j.fail(rules.Failure{Rule: rules.StreamBroken, Text: fmt.Sprintf("the connection broke after the stream broke a rule: %v", o.read)})
	default:
		j.fail(rules.Failure{Rule: rules.StreamBroken, Text: fmt.Sprintf("the connection broke after every run ended: %v", o.read)})
	}
}

// trailerless is an unzipped stream that ends, without gzip's trailer,
// where its client left: the trailer that never came cuts nothing the
// client was sent.
type trailerless struct {
	io.Reader
	j *judging
}

func (t trailerless) Read(p []byte) (int, error) {
	n, err := t.Reader.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) { // the stream has closed: its outcome was set first
		if t.j.outcome.left() {
			err = io.EOF
		}
	}
	return n, err
}

// allEnded says whether the stream had begun a run, ended every run it
// began, broken no rule and left no event or frame half sent (Cut: the
// judge reads a stream the client left as ending there) when its reading
// stopped.
func (j *judging) allEnded(w agent.Watched) bool {
	return j.violation == nil && w.ActiveRun == "" && w.Cut == nil && w.Truncated == "" && len(j.consumer.Runs()) > 0
}

// frame notes one frame, and keeps it for the log while a script may
// hold it.
func (j *judging) frame(f script.Frame, judged agui.Judgement) bool {
	at := j.stream.arrival()
	f.After, j.last = at.Sub(j.last), at
	if j.watcher != nil {
		j.watcher.Frame(at.Sub(j.start), f, judged)
	}
	if !j.keep {
		return true
	}
	// Counted as written, not as sent: an empty comment is 2 bytes sent
	// and some 50 written, and an event is indented.
	if j.kept += script.FrameSize(f); j.kept > script.MaxBytes {
		j.keep, j.frames = false, nil
		j.note("not logged: the stream is over %d MiB as a script, more than a script may hold", script.MaxBytes>>20)
		return true
	}
	f.Event = bytes.Clone(f.Event)
	j.frames = append(j.frames, f)
	return true
}

func (j *judging) fail(f rules.Failure) { j.run.Failures = append(j.run.Failures, f) }

func (j *judging) note(format string, args ...any) {
	j.run.Notes = append(j.run.Notes, fmt.Sprintf(format, args...))
}

// finish reports the run: to the log, the summary, the observer, Report, then the
// thread's memory, so that the next run of the thread is reported after
// this one.
func (j *judging) finish() {
	if j.whole && j.violation == nil {
		j.ref.judged = true
		j.ref.pending, j.ref.open = j.consumer.Pending()
	}
	j.ref.runID = j.run.RunID
	if j.keep && len(j.frames) > 0 {
		j.p.log(&j.run, j.start, j.frames)
	}
	j.p.count(j.run)
	if j.watcher != nil {
		j.watcher.End(j.run)
	}
	j.p.cfg.Report(j.run)
	close(j.ref.done)
}
