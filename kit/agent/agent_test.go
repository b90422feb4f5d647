package agent

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"go.uber.org/goleak"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func demo(t *testing.T, scenario string) agui.Input {
	t.Helper()
	in, _, err := NewInput(nil, Inputs{State: []byte(`{"services":[]}`), Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func checks(ex Exchange) []string {
	var out []string
	for _, f := range ex.Failures {
		out = append(out, f.Rule)
	}
	return out
}

// streaming answers 200 text/event-stream with body, flushed.
func streaming(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, body)
	}
}

func TestANormalRunIsMeasuredAndKept(t *testing.T) {
	url, before := servertest.Ours(t), time.Now()
	ex := Run(t.Context(), Request{URL: url, Input: demo(t, "normal"), Keep: true})
	tr := ex.Transport
	if tr.Sent.Before(before) || tr.Sent.After(before.Add(tr.Took)) {
		t.Errorf("sent at %v, asked at %v, took %v", tr.Sent, before, tr.Took)
	}
	if len(ex.Failures) != 0 || ex.Violation != nil || ex.Truncated != "" || len(ex.Warnings) != 0 || len(ex.Notes) != 0 {
		t.Fatalf("%+v", ex)
	}
	if tr.Status != 200 || tr.ContentType != "text/event-stream" || tr.Events != 6 || tr.Comments != 0 ||
		tr.Answered <= 0 || tr.Took < tr.Answered || tr.LongestGap > tr.Took {
		t.Errorf("transport %+v", tr)
	}
	if len(ex.Frames) != 6 || !strings.Contains(string(ex.Frames[0].Event), `"type":"RUN_STARTED"`) || ex.Frames[0].After < tr.Answered {
		t.Errorf("frames %+v", ex.Frames)
	}
	if !strings.Contains(string(ex.Sent), `"forwardedProps":{"scenario":"normal"},"protocolVersion":"1.1"`) {
		t.Errorf("sent %s", ex.Sent)
	}
	if s := tr.String(); !strings.HasPrefix(s, "200 text/event-stream · 6 events · 0 keep-alive comments · answered in ") {
		t.Errorf("%s", s)
	}
}

// Comments are frames of their own, in their place; without Keep nothing
// is kept.
func TestCommentsAreFramesInOrder(t *testing.T) {
	ex := Run(t.Context(), Request{URL: servertest.Ours(t), Input: demo(t, "keep-alive-comments"), Keep: true})
	var kinds []string
	for _, f := range ex.Frames {
		if f.Event == nil {
			kinds = append(kinds, "c:"+f.Comment)
		} else {
			kinds = append(kinds, "e")
		}
	}
	if got := strings.Join(kinds, " "); got != "e c:keep-alive e c:keep-alive c:keep-alive e c:keep-alive e" || ex.Transport.Comments != 4 {
		t.Errorf("%s (%d comments)", got, ex.Transport.Comments)
	}
	if ex := Run(t.Context(), Request{URL: servertest.Ours(t), Input: demo(t, "keep-alive-comments")}); ex.Frames != nil || ex.Transport.Events != 4 {
		t.Errorf("kept %d frames without Keep", len(ex.Frames))
	}
}

// The engine judges the stream; reading goes on after a violation.
func TestTheEngineJudgesAsItReads(t *testing.T) {
	ex := Run(t.Context(), Request{URL: servertest.Ours(t), Input: demo(t, "events-after-finish"), Keep: true})
	if ex.Violation == nil || ex.Violation.Rule != agui.AfterFinish || ex.Violation.Index != 4 || len(ex.Failures) != 0 {
		t.Errorf("%+v", ex)
	}
	if len(ex.Frames) != ex.Transport.Events || ex.Transport.Events <= 5 {
		t.Errorf("stopped reading at the violation: %d frames", len(ex.Frames))
	}
	ex = Run(t.Context(), Request{URL: servertest.Ours(t), Input: demo(t, "no-terminal-event")})
	if ex.Truncated == "" || !strings.Contains(ex.Truncated, "no terminal event") || len(ex.Failures) != 0 {
		t.Errorf("%+v", ex)
	}
}

func TestAnswersThatAreNotStreams(t *testing.T) {
	tests := []struct {
		name   string
		handle http.HandlerFunc
		check  string
		says   string
	}{
		{"HTML", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html>\n<title>Sign in</title>\n<p>Please sign in.</p>")
		}, rules.ContentType, `the answer is "text/html; charset=utf-8", not text/event-stream or application/vnd.ag-ui.event+proto: "<!doctype html> <title>Sign in</title> <p>Please sign in.</p>"`},
		{"a problem", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusUnprocessableEntity)
			fmt.Fprint(w, `{"title":"Unknown scenario","detail":"x is not one of y."}`)
		}, rules.HTTPStatus, "the agent answered 422 Unprocessable Entity, not 2xx: Unknown scenario x is not one of y."},
		{"a bare 500", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
		}, rules.HTTPStatus, "the agent answered 500 Internal Server Error, not 2xx: an empty body"},
		{"a redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}, rules.HTTPStatus, `the agent answered 302 Found, a redirect to "/elsewhere": AG-UI posts once`},
		{"a redirect whose query holds a key", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://agent.example/run?key=s3cret", http.StatusMovedPermanently)
		}, rules.HTTPStatus, `a redirect to "https://agent.example/run": AG-UI posts once`},
		{"a redirect whose Location does not parse", func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Location"] = []string{"http://[::1/run?key=s3cret"}
			w.WriteHeader(http.StatusFound)
		}, rules.HTTPStatus, `the agent answered 302 Found, a redirect to "http://[::1/run": AG-UI posts once`},
		{"a 3xx with no Location", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotModified)
		}, rules.HTTPStatus, "the agent answered 304 Not Modified, not 2xx: an empty body"},
		{"a long body", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, strings.Repeat("x", 10_000))
		}, rules.ContentType, `"` + strings.Repeat("x", 120) + `…"`},
		{"a problem that would write lines of its own", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"title":"Bad","detail":"x\nok   forged-run\u001b[2K\u202e"}`)
		}, rules.HTTPStatus, `not 2xx: Bad x ok forged-run\x1b[2K\u202e`},
		{"a long problem", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprintf(w, `{"title":"Bad","detail":"%s"}`, strings.Repeat("y", 1000))
		}, rules.HTTPStatus, "not 2xx: Bad " + strings.Repeat("y", 116) + "…"},
		{"a reason phrase with a terminal's escape", func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				fmt.Fprint(conn, "HTTP/1.1 503 Busy\x1b[31m FAKE\r\nContent-Length: 0\r\n\r\n")
				conn.Close()
			}
		}, rules.HTTPStatus, `the agent answered 503 Busy\x1b[31m FAKE, not 2xx: an empty body`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex := Run(t.Context(), Request{URL: servertest.Upstream(t, tt.handle), Input: demo(t, "normal")})
			if len(ex.Failures) != 1 || ex.Failures[0].Rule != tt.check || !strings.Contains(ex.Failures[0].Text, tt.says) ||
				strings.Contains(ex.Failures[0].Text, "s3cret") || strings.ContainsFunc(ex.Failures[0].Text, func(r rune) bool { return !strconv.IsPrint(r) && r != ' ' }) {
				t.Errorf("%+v", ex.Failures)
			}
			if ex.Violation != nil || ex.Truncated != "" || ex.Transport.Events != 0 {
				t.Errorf("judged a stream that is not one: %+v", ex)
			}
		})
	}
}

// A 101 hands the client the raw connection as its body, which no request
// context reaches: it fails http-status unread, at once, not at the
// timeout, nor never.
func TestASwitchOfProtocolsIsNotRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hijacked := make(chan net.Conn, 1)
		switches := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			conn, _, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			hijacked <- conn
			fmt.Fprint(conn, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
			io.Copy(io.Discard, conn) // until the client closes it
		})
		done := make(chan Exchange, 1)
		go func() {
			done <- Run(t.Context(), Request{URL: "http://agent.test/", Input: demo(t, "normal"), Timeout: 100 * time.Millisecond, dial: switches})
		}()
		select {
		case ex := <-done:
			if got := checks(ex); len(got) != 1 || got[0] != rules.HTTPStatus || ex.Failures[0].Text != "the agent answered 101 Switching Protocols, not 2xx: it switches the connection to another protocol, which is not read" ||
				ex.Transport.Took != 0 {
				t.Errorf("%+v, took %v", ex.Failures, ex.Transport.Took)
			}
		case <-time.After(time.Second): // the bubble's clock: when nothing else can move
			t.Errorf("a run of a 100ms timeout still reading a 101 at 1s")
			(<-hijacked).Close()
			<-done
		}
	})
}

// A stop takes no frame after it: with -cancel-after 0 not even one that
// came with the answer's headers (in memory, in the read that brought
// them), in either encoding, a frame that does not decode among them.
func TestNoFrameIsTakenAfterTheStop(t *testing.T) {
	in := demo(t, "normal")
	const content = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}` // breaks first-event
	for name, answer := range map[string]http.HandlerFunc{
		"SSE":                 streaming(": hi\n\ndata: " + content + "\n\n"),
		"binary":              binaryAnswer(proto.MediaType, framed(t, content)),
		"binary, undecodable": binaryAnswer(proto.MediaType, frameOf(3, []byte{0xff, 0xff, 0xff})),
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ex := Run(t.Context(), Request{URL: "http://agent.test/", Input: in, Binary: name != "SSE", Keep: true, Stop: &Stop{Events: 0}, dial: inMemory(t, answer)})
				tr := ex.Transport
				if ex.Stopped == nil || ex.Stopped.Events != 0 || ex.Violation != nil || tr.Events != 0 || tr.Comments != 0 || len(ex.Frames) != 0 || len(ex.Failures) != 0 {
					t.Errorf("stopped %+v, violation %v, %d events, %d comments, %d kept, %v", ex.Stopped, ex.Violation, tr.Events, tr.Comments, len(ex.Frames), ex.Failures)
				}
			})
		})
	}
}

// An agent that never answers, or never ends, is cut at the timeout, and
// says which. In a bubble, the timeout passes when it says, to the
// nanosecond, however busy the machine.
func TestTheTimeoutCutsWhatNeverEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ex := Run(t.Context(), Request{URL: "http://agent.test/", Input: demo(t, "normal"), Timeout: 100 * time.Millisecond, dial: inMemory(t, servertest.NeverAnswers)})
		if got := checks(ex); len(got) != 1 || got[0] != rules.Timeout || ex.Failures[0].Text != "no answer within 100ms: the agent sent no response headers" {
			t.Errorf("never answers: %+v", ex.Failures)
		}

		forever := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // so that net/http notices the client go
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				fmt.Fprint(w, ": keep-alive\n\n")
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-tick.C:
				}
			}
		})
		ex = Run(t.Context(), Request{URL: "http://agent.test/", Input: demo(t, "normal"), Timeout: 150 * time.Millisecond, dial: forever})
		if got := checks(ex); len(got) != 1 || got[0] != rules.Timeout || !strings.HasPrefix(ex.Failures[0].Text, "the stream was still open after 150ms: 1 events and ") {
			t.Errorf("streams forever: %+v", ex.Failures)
		}
		if ex.Truncated != "" || ex.Transport.Comments < 2 || ex.Transport.LongestGap != 2*time.Millisecond {
			t.Errorf("the cut run is reported as truncated, or the comments not measured: %+v", ex)
		}

		headersOnly := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		ex = Run(t.Context(), Request{URL: "http://agent.test/", Input: demo(t, "normal"), Timeout: 100 * time.Millisecond, dial: headersOnly})
		tr := ex.Transport
		if got := checks(ex); len(got) != 1 || ex.Failures[0].Text != "the stream was still open after 100ms, and nothing was sent on it" ||
			tr.LongestGap != tr.Took-tr.Answered || tr.Took != 100*time.Millisecond {
			t.Errorf("silent after its headers: %+v, %+v", ex.Failures, tr)
		}

		const partial = `data: {"type":`
		partOfAnEvent := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, partial)
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		})
		ex = Run(t.Context(), Request{URL: "http://agent.test/", Input: demo(t, "normal"), Timeout: 100 * time.Millisecond, dial: partOfAnEvent})
		if got := checks(ex); len(got) != 1 || ex.Failures[0].Text != fmt.Sprintf("the stream was still open after 100ms: %d bytes came on it, no whole event or comment, the last 100ms before the cut", len(partial)) {
			t.Errorf("part of an event, then silent: %+v", ex.Failures)
		}
	})

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if ex := Run(ctx, Request{URL: servertest.Upstream(t, servertest.NeverAnswers), Input: demo(t, "normal")}); len(ex.Failures) != 1 || ex.Failures[0].Rule != rules.Interrupted {
		t.Errorf("cancelled: %+v", ex.Failures)
	}
}

// The longest silence is the longest time no byte came, from the answer
// to the end: the agent thinking between events, not an event sent slowly.
func TestTheLongestSilenceIsMeasured(t *testing.T) {
	in, _, err := agui.ReadInput([]byte(`{"threadId":"t","runId":"r","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	const started, finished = "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n", "data: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	const pause = 60 * time.Millisecond
	synctest.Test(t, func(t *testing.T) {
		thinks := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, started)
			w.(http.Flusher).Flush()
			time.Sleep(pause) // the agent thinking (the bubble's clock: no real wait)
			fmt.Fprint(w, finished)
		})
		ex := Run(t.Context(), Request{URL: "http://agent.test/", Input: in, Keep: true, dial: thinks})
		if len(ex.Failures) != 0 || ex.Violation != nil || ex.Transport.LongestGap != pause || ex.Frames[1].After != pause {
			t.Errorf("gap %v, frames %+v, %+v", ex.Transport.LongestGap, ex.Frames, ex.Failures)
		}

		const each = 2 * time.Millisecond
		trickles := inMemory(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, started)
			w.(http.Flusher).Flush()
			for i := range len(finished) {
				time.Sleep(each)
				fmt.Fprint(w, finished[i:i+1])
				w.(http.Flusher).Flush()
			}
		})
		ex = Run(t.Context(), Request{URL: "http://agent.test/", Input: in, Keep: true, dial: trickles})
		if len(ex.Failures) != 0 || ex.Transport.LongestGap != each || ex.Frames[1].After != time.Duration(len(finished))*each {
			t.Errorf("a byte every %v: longest silence %v, the event after %v", each, ex.Transport.LongestGap, ex.Frames[1].After)
		}
	})
}

func TestFraming(t *testing.T) {
	in, _, _ := agui.ReadInput([]byte(`{"threadId":"t","runId":"r","messages":[]}`))
	const started, finished = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`

	// An event the end cuts short is discarded, and its run left open.
	ex := Run(t.Context(), Request{URL: servertest.Upstream(t, streaming("data: "+started+"\n\ndata: "+finished+"\n")), Input: in})
	if got := checks(ex); len(got) != 1 || got[0] != rules.SSEFraming || !strings.Contains(ex.Failures[0].Text, "1 data line(s), 50 bytes, with no blank line after them") ||
		!strings.Contains(ex.Truncated, "no terminal event") {
		t.Errorf("cut short: %+v %q", ex.Failures, ex.Truncated)
	}
	// So is one cut inside a line, a field's name included: what follows
	// the last line end is no line, and names no field.
	for rest, says := range map[string]string{"dat": "0 data line(s) and 3 bytes of a line with no end", "data: " + finished[:9]: "0 data line(s) and 15 bytes of a line"} {
		ex = Run(t.Context(), Request{URL: servertest.Upstream(t, streaming("data: "+started+"\n\n"+rest)), Input: in})
		if got := checks(ex); len(got) != 1 || got[0] != rules.SSEFraming || !strings.Contains(ex.Failures[0].Text, says) || len(ex.Notes) != 0 {
			t.Errorf("cut inside %q: %+v %q", rest, ex.Failures, ex.Notes)
		}
	}
	// A comment cut short is no event cut short.
	ex = Run(t.Context(), Request{URL: servertest.Upstream(t, streaming("data: "+started+"\n\n: keep-al")), Input: in})
	if got := checks(ex); len(got) != 0 || ex.Transport.Comments != 0 {
		t.Errorf("cut inside a comment: %+v, %d comments", ex.Failures, ex.Transport.Comments)
	}

	// Legal but notable framing is a note.
	body := "event: message\nid: 1\ndata:" + started + "\n\nevent: message\ndata: {\"type\":\"RUN_FINISHED\",\ndata: \"threadId\":\"t\",\"runId\":\"r\"}\n\n"
	ex = Run(t.Context(), Request{URL: servertest.Upstream(t, streaming(body)), Input: in})
	want := []string{
		`SSE fields AG-UI gives no meaning to, which clients ignore: "event" ×2, "id" ×1`,
		`1 data line(s) with no space after "data:"`,
		"1 event(s) over several data lines",
	}
	if len(ex.Failures) != 0 || ex.Violation != nil || len(ex.Notes) != len(want) {
		t.Fatalf("%+v", ex)
	}
	for i, w := range want {
		if !strings.HasPrefix(ex.Notes[i], w) {
			t.Errorf("note %d: %q, want %q", i, ex.Notes[i], w)
		}
	}

	// An event over the engine's bound stops the reading.
	huge := "data: {\"type\":\"CUSTOM\",\"name\":\"x\",\"value\":\"" + strings.Repeat("x", agui.MaxEventBytes) + "\"}\n\n"
	ex = Run(t.Context(), Request{URL: servertest.Upstream(t, streaming("data: "+started+"\n\n"+huge)), Input: in})
	if got := checks(ex); len(got) != 1 || got[0] != "limit" || ex.Truncated != "" || !strings.HasPrefix(ex.Failures[0].Text, "an event is over the engine's 1 MiB bound") {
		t.Errorf("too large: %+v", ex.Failures)
	}
	// So does a comment line over it, said to be one.
	long := ": " + strings.Repeat("k", agui.MaxEventBytes+16) + "\n\n"
	ex = Run(t.Context(), Request{URL: servertest.Upstream(t, streaming("data: "+started+"\n\n"+long)), Input: in})
	if got := checks(ex); len(got) != 1 || got[0] != "limit" || ex.Failures[0].Text != "a comment line is over the engine's 1 MiB bound: the stream was not read further" {
		t.Errorf("a long comment: %+v", ex.Failures)
	}
}

// breaking sends body, then breaks the connection: it promised more.
func breaking(body string) http.HandlerFunc { return breakingAs("text/event-stream", body) }

// breakingAs is breaking with a content type.
func breakingAs(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", "100000") // promised, never sent
		fmt.Fprint(w, body)
		w.(http.Flusher).Flush()
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	}
}

// A connection that breaks mid-stream truncates the run, and says so;
// in the binary transport too, where a break between frames cuts no
// frame.
func TestABrokenConnection(t *testing.T) {
	in, _, _ := agui.ReadInput([]byte(`{"threadId":"t","runId":"r","messages":[]}`))
	started := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	for contentType, body := range map[string]string{"text/event-stream": "data: " + started + "\n\n", proto.MediaType: string(framed(t, started))} {
		ex := Run(t.Context(), Request{URL: servertest.Upstream(t, breakingAs(contentType, body)), Input: in, Binary: contentType == proto.MediaType})
		if len(ex.Failures) != 0 || ex.ReadToEnd || !strings.Contains(ex.Truncated, "no terminal event (the connection broke: unexpected EOF)") {
			t.Errorf("%s: %+v %q", contentType, ex.Failures, ex.Truncated)
		}
	}
}

// After a broken rule the engine judges nothing, so says nothing of
// truncation: the break is worded by the runs it had seen, mid-run or
// after them.
func TestABrokenConnectionAfterABrokenRule(t *testing.T) {
	in, _, _ := agui.ReadInput([]byte(`{"threadId":"t","runId":"r","messages":[]}`))
	const started, finished = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
	for _, tt := range []struct{ name, body, says string }{
		{"mid-run", "data: " + started + "\n\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"x\"}\n\n",
			`the connection broke while run "r" was active: unexpected EOF`},
		{"after the run", "data: " + started + "\n\ndata: " + finished + "\n\ndata: {\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{}}\n\n",
			"the connection broke after the stream broke a rule: unexpected EOF"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ex := Run(t.Context(), Request{URL: servertest.Upstream(t, breaking(tt.body)), Input: in})
			if ex.Violation == nil || len(ex.Failures) != 1 || ex.Failures[0].Rule != rules.StreamBroken || ex.Failures[0].Text != tt.says {
				t.Errorf("%+v, violation %v", ex.Failures, ex.Violation)
			}
		})
	}
}

// An agent whose connection closes before any answer is unreachable: the
// request could not be made. (A listener closing what it accepts: a port
// closed for good could be taken by another process meanwhile.)
func TestAnUnreachableAgent(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepting := make(chan struct{})
	go func() {
		defer close(accepting)
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-accepting
	})
	ex := Run(t.Context(), Request{URL: "http://" + ln.Addr().String() + "/agent", Input: demo(t, "normal")})
	if got := checks(ex); len(got) != 1 || got[0] != rules.Unreachable || !strings.HasPrefix(ex.Failures[0].Text, "the request failed: ") || ex.Transport.Status != 0 {
		t.Errorf("%+v", ex.Failures)
	}
	if s := ex.Transport.String(); !strings.HasPrefix(s, "no answer · ") {
		t.Errorf("%s", s)
	}
}

// An https URL of an agent that speaks plain HTTP is said to be one.
func TestAnHTTPSURLOfAnHTTPAgent(t *testing.T) {
	url := strings.Replace(servertest.Upstream(t, streaming("")), "http://", "https://", 1)
	ex := Run(t.Context(), Request{URL: url, Input: demo(t, "normal")})
	if got := checks(ex); len(got) != 1 || got[0] != rules.Unreachable || ex.Failures[0].Text != "the request failed: http: server gave HTTP response to HTTPS client" {
		t.Errorf("%+v", ex.Failures)
	}
}

// What a script may hold bounds a recording.
func TestKeepIsBounded(t *testing.T) {
	line := ": " + strings.Repeat("k", 512<<10) + "\n"
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for range 40 { // 20 MiB of comments
			if _, err := fmt.Fprint(w, line); err != nil {
				return
			}
		}
	})
	ex := Run(t.Context(), Request{URL: url, Input: demo(t, "normal"), Keep: true})
	if got := checks(ex); len(got) != 1 || got[0] != rules.TooLong || len(ex.Frames) > 34 {
		t.Errorf("%v, %d frames", ex.Failures, len(ex.Frames))
	}
}

// What a URL may carry of secrets, its user info and query, is kept out of
// every report.
func TestTheURLIsReportedWithoutSecrets(t *testing.T) {
	var got *http.Request
	base := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		w.WriteHeader(http.StatusUnauthorized)
	})
	secret := strings.Replace(base, "http://", "http://user:s3cret@", 1) + "/run?key=s3cret#part"
	ex := Run(t.Context(), Request{URL: secret, Input: demo(t, "normal")})
	if ex.Transport.URL != base+"/run" {
		t.Errorf("reported as %q", ex.Transport.URL)
	}
	if user, pass, _ := got.BasicAuth(); user != "user" || pass != "s3cret" || got.URL.RawQuery != "key=s3cret" {
		t.Errorf("the agent was not asked as the URL says: %v", got.URL)
	}
	for raw, want := range map[string]string{
		"http://u:p%zz@agent.test/run?key=1":  "http://agent.test/run", // does not parse
		"http://u:p%zz@agent.test#key":        "http://agent.test",
		"not a URL\x7f?key=1":                 "not a URL\x7f",
		"alice:s3cret@agent.example/agui?k=1": "agent.example/agui", // no scheme: "alice" would be one
		"alice:s3/c?ret@agent.example/agui":   "agent.example/agui",
		"http://alice:s3/cret@agent.test/x":   "http://agent.test/x", // does not parse: the port is "s3"
		"http://[::1]:8080/x?key=1":           "http://[::1]:8080/x",
		"http://agent.test/users/@me?k=1":     "http://agent.test/users/@me",
		"localhost:8080/agui?api_key=s3cret":  "localhost:8080/agui",
		"http://agent.example/":               "http://agent.example/",
		"http//user:s3cret@agent.example/x":   "agent.example/x", // no host: a path
		"http:/user:s3cret@agent.example/x":   "agent.example/x",
		"/elsewhere?key=s3cret":               "/elsewhere",
	} {
		if got := RedactURL(raw); got != want {
			t.Errorf("%q shown as %q, want %q", raw, got, want)
		}
	}
}

// A header given replaces the client's own, Host and Accept-Encoding
// included: Host is the request's host, and a gzip answer the client no
// longer unzips itself is read unzipped; an encoding not read says so.
func TestHeadersAsCurlSendsThem(t *testing.T) {
	var host string
	in, _, err := NewInput(nil, Inputs{})
	if err != nil {
		t.Fatal(err)
	}
	normal := fmt.Sprintf("data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID) +
		fmt.Sprintf("data: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		host = r.Host
		w.Header().Set("Content-Type", "text/event-stream")
		switch r.Header.Get("Accept-Encoding") {
		case "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			z := gzip.NewWriter(w)
			io.WriteString(z, normal)
			z.Close()
		case "gzip, corrupt":
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, normal) // not gzip at all
		case "gzip, untrailered":
			w.Header().Set("Content-Encoding", "gzip")
			z := gzip.NewWriter(w)
			io.WriteString(z, normal)
			z.Flush() // and never Close: the body ends whole, its gzip short of its trailer
		case "gzip, refused":
			w.Header().Set("Content-Encoding", "gzip")
			w.WriteHeader(http.StatusBadGateway)
			io.WriteString(w, "upstream down") // not gzip either
		case "br":
			w.Header().Set("Content-Encoding", "br")
			io.WriteString(w, "\x0b\x02\x80not brotli")
		default:
			io.WriteString(w, normal)
		}
	})
	ex := Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Host": {"agent.example"}}})
	if host != "agent.example" || len(ex.Failures) != 0 || ex.Transport.Events != 2 {
		t.Errorf("Host %q: %+v", host, ex.Failures)
	}
	ex = Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Accept-Encoding": {"gzip"}}})
	if len(ex.Failures) != 0 || ex.Truncated != "" || ex.Transport.Events != 2 {
		t.Errorf("a gzip stream: %d events, %+v %q", ex.Transport.Events, ex.Failures, ex.Truncated)
	}
	ex = Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Accept-Encoding": {"gzip, corrupt"}}})
	if len(ex.Failures) != 1 || ex.Failures[0].Rule != rules.Unjudged || !strings.Contains(ex.Failures[0].Text, "not the gzip it says") {
		t.Errorf("a stream that is not the gzip it says: %+v %q %d", ex.Failures, ex.Truncated, ex.Transport.Events)
	}
	ex = Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Accept-Encoding": {"gzip, untrailered"}}})
	if ex.Transport.Events != 2 || len(ex.Failures) != 1 || ex.Failures[0].Text != "the answer's gzip encoding ended short of its trailer after every run ended" {
		t.Errorf("a gzip stream without its trailer: %d events, %+v", ex.Transport.Events, ex.Failures)
	}
	ex = Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Accept-Encoding": {"gzip, refused"}}})
	if len(ex.Failures) != 1 || ex.Failures[0].Text != "the agent answered 502 Bad Gateway, not 2xx: a body that is not the gzip it says it is" {
		t.Errorf("a refusal that is not the gzip it says: %+v", ex.Failures)
	}
	ex = Run(t.Context(), Request{URL: url, Input: in, Header: http.Header{"Accept-Encoding": {"br"}}})
	if len(ex.Failures) != 1 || ex.Failures[0].Rule != rules.Unjudged || !strings.Contains(ex.Failures[0].Text, "br-encoded") {
		t.Errorf("a br stream: %+v", ex.Failures)
	}
}

// A gzip answer is asked for, and unzipped by the kit, whether a -H asks
// for it or not: one whose body ends whole, short of its gzip trailer,
// says so either way, no connection having broken.
func TestAGzipAnswerShortOfItsTrailer(t *testing.T) {
	in, _, err := NewInput(nil, Inputs{})
	if err != nil {
		t.Fatal(err)
	}
	url := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		if r.Header.Get("Accept-Encoding") != "gzip" {
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		z := gzip.NewWriter(w)
		fmt.Fprintf(z, "data: {\"type\":\"RUN_STARTED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
		fmt.Fprintf(z, "data: {\"type\":\"RUN_FINISHED\",\"threadId\":%q,\"runId\":%q}\n\n", in.ThreadID, in.RunID)
		z.Flush() // and never Close
	})
	for _, header := range []http.Header{nil, {"Accept-Encoding": {"gzip"}}} {
		ex := Run(t.Context(), Request{URL: url, Input: in, Header: header})
		if ex.Transport.Events != 2 || len(ex.Failures) != 1 || ex.Failures[0].Text != "the answer's gzip encoding ended short of its trailer after every run ended" {
			t.Errorf("-H %v: %d events, %+v", header, ex.Transport.Events, ex.Failures)
		}
	}
}
