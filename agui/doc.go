// Package agui is a client-side engine for AG-UI 1.x, the Agent–User
// Interaction protocol (https://docs.ag-ui.com/spec/1.1/): it judges the
// events an agent streams, one at a time, as the spec asks a consumer to,
// and keeps what a consumer keeps. It does no I/O and starts no
// goroutines: the caller reads the stream (package
// github.com/agent-analysis/agent-analysis/agui/sse reads Server-Sent
// Events) and hands the engine each event's JSON.
//
// It covers:
//
//   - events: all 31 types, each read against the protocol's schema; a
//     chunk is expanded into the start, content and end events it stands
//     for, and a retired 0.x shape is translated into its replacement;
//   - the run lifecycle: a stream's runs, each started, then finished with
//     an outcome or failed with the agent's own error report, on the
//     input's thread, with the requested run last;
//   - family discipline: text messages, tool calls, reasoning, steps and
//     subagents are opened, continued and closed in order, and everything
//     a run opened is closed before it finishes;
//   - the conversation: the messages the stream builds, reconciled by
//     MESSAGES_SNAPSHOT, as the next run's input carries them;
//   - the state, of any JSON value: replaced by STATE_SNAPSHOT and patched
//     by STATE_DELTA (RFC 6902, whole or not at all), or held in the
//     application's own typed State;
//   - interrupts and resume: the questions an interrupted run waits for,
//     and the checked input of the run that answers them;
//   - warnings: what the engine dropped, stripped or could not apply,
//     each naming its rule, while the run goes on.
//
// # Install
//
//	go get github.com/agent-analysis/agent-analysis/agui
//
// # Use
//
// A run starts from a RunAgentInput: ReadInput checks one, as a client
// about to send it or a server receiving it must. NewConsumer starts
// judging the stream that answers it; Consumer.Feed judges each event in
// turn and returns a Judgement: the events application code receives,
// the warnings, what the event did to the state, and, when the stream
// broke a rule, the Violation. Consumer.End says whether the stream
// ended with its runs ended too.
//
//	in, _, err := agui.ReadInput(body) // the RunAgentInput sent
//	...
//	c, err := agui.NewConsumer(in, agui.Options{})
//	...
//	stream := sse.NewReader(resp.Body, agui.MaxEventBytes)
//	for {
//		data, err := stream.Next()
//		if err != nil {
//			break // io.EOF at the end of the stream
//		}
//		j := c.Feed(data)
//		if j.Violation != nil {
//			return j.Violation // the stream is rejected from here on
//		}
//		for _, e := range j.Events {
//			... // e.Type, e.JSON
//		}
//	}
//	if why := c.End(); why != "" {
//		... // truncated: never a success
//	}
//
// Afterwards Consumer.Runs says how each run ended, Consumer.Messages is
// the conversation and Consumer.State the state. A run that ended with
// the interrupt outcome leaves its questions in Consumer.Pending; answer
// each (Approve builds the answer to a yes/no question) and
// Pending.Resume builds the input of the run that continues it, checked
// before it is sent. A server can run the same check on an input it
// receives (Pending.Check).
//
// The types, in the order a caller meets them: Input, Options, Consumer,
// Judgement (with Event, Warning, Violation, Run and StateChange), State
// (JSONState holds any JSON value), Pending (with Interrupt and Answer),
// and Rule.
//
// # Versions
//
// The engine speaks AG-UI 1.1 (Current), which only adds to 1.0, and can
// speak 1.0 (V1_0). The version spoken is what a request declares
// (Input.RequestAs) and what a producer's declaration is judged against
// (Options.Speak); events are read against 1.1's schema either way. A
// producer declaring a newer version, or one that cannot be read, gets a
// warning and is read by the rules of the version spoken. For a peer known to be older
// (Options.Peer), the engine makes the downgrades the spec permits and
// warns about what they lose.
//
// # Refused or warned about
//
// A stream that breaks a fatal rule is rejected at that event: the
// Judgement carries the Violation, every later Feed returns it again, and
// nothing more is delivered. The fatal rules are the event's shape (not
// one JSON object, or a value the schema rejects where the protocol
// describes one), the run lifecycle, the families' order, the chunks,
// attribution to subagents, unique interrupt ids, and the engine's own
// bounds on one stream (the Max constants).
//
// Material the protocol does not describe is removed with a warning: an
// unknown event type, member, enum value or patch operation. Other things
// get a warning and the run goes on: a patch or snapshot that cannot
// apply (the state stays as it was; with Options.Refusals set to Fail,
// the stream is rejected instead), a producer's newer or unreadable
// version, a retired shape (translated), a lossy downgrade, an activity
// or reasoning event naming a message the engine does not hold, and a
// resumed run that leaves the interrupted tool call unanswered. Rules lists every rule with its spec page, a few of its
// words and its meaning (Rule.Summary).
//
// A Consumer is used by one goroutine at a time.
package agui
