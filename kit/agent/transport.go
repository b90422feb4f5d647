package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/kit/rules"
)

// Transport is what one exchange measured.
type Transport struct {
	URL         string // as RedactURL shows it
	Status      int    // 0 when no answer came
	ContentType string // as the answer said it
	Events      int
	Comments    int           // SSE comment lines: keep-alives
	Sent        time.Time     // when the request was sent; what follows is measured from it
	Answered    time.Duration // from sending the request to the answer's headers
	LongestGap  time.Duration // the longest time no byte arrived, from the answer's headers to the stream's end
	Took        time.Duration // the whole exchange: from sending the request to the stream's end
}

// Binary reports whether the answer is in AG-UI's binary transport.
func (t Transport) Binary() bool {
	mt, _, _ := mime.ParseMediaType(t.ContentType)
	return mt == proto.MediaType
}

// MarshalJSON writes durations in milliseconds, for machines.
func (t Transport) MarshalJSON() ([]byte, error) {
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	return json.Marshal(struct {
		URL          string  `json:"url"`
		Status       int     `json:"status"`
		ContentType  string  `json:"contentType"`
		Events       int     `json:"events"`
		Comments     int     `json:"comments"`
		AnsweredMs   float64 `json:"answeredMs"`
		LongestGapMs float64 `json:"longestGapMs"`
		TookMs       float64 `json:"tookMs"`
	}{t.URL, t.Status, t.ContentType, t.Events, t.Comments, ms(t.Answered), ms(t.LongestGap), ms(t.Took)})
}

// String is the measurements in one line.
func (t Transport) String() string {
	if t.Status == 0 {
		return fmt.Sprintf("no answer · %s", round(t.Took))
	}
	comments := fmt.Sprintf(" · %d keep-alive comments", t.Comments)
	if t.Binary() {
		comments = "" // the binary transport has none
	}
	return fmt.Sprintf("%d %s · %d events%s · answered in %s · longest silence %s · %s",
		t.Status, t.ContentType, t.Events, comments, round(t.Answered), round(t.LongestGap), round(t.Took))
}

func round(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(10 * time.Millisecond)
	}
	return d.Round(100 * time.Microsecond)
}

// checkAnswer is why an answer is not an event stream to read: a status
// other than 2xx, or another content type. It reads a little of body (the
// answer's, unzipped) to say what came instead.
func checkAnswer(resp *http.Response, body io.Reader) *rules.Failure {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode < 400 && resp.Header.Get("Location") != "":
		return &rules.Failure{Rule: rules.HTTPStatus, Text: fmt.Sprintf("the agent answered %s, a redirect to %q: AG-UI posts once, so point the URL at the endpoint itself",
			statusOf(resp), RedactURL(resp.Header.Get("Location")))}
	case resp.StatusCode < 200: // 101, the one 1xx the client returns
		return &rules.Failure{Rule: rules.HTTPStatus, Text: fmt.Sprintf("the agent answered %s, not 2xx: it switches the connection to another protocol, which is not read", statusOf(resp))}
	case resp.StatusCode >= 300:
		return &rules.Failure{Rule: rules.HTTPStatus, Text: fmt.Sprintf("the agent answered %s, not 2xx: %s", statusOf(resp), Excerpt(body, mt))}
	case mt != "text/event-stream" && mt != proto.MediaType:
		return &rules.Failure{Rule: rules.ContentType, Text: fmt.Sprintf("the answer is %q, not text/event-stream or %s: %s", resp.Header.Get("Content-Type"), proto.MediaType, Excerpt(body, mt))}
	}
	return nil
}

// statusOf is an answer's status as a report shows it: its code, and its
// reason phrase, the agent's text, as oneLine gives it.
func statusOf(resp *http.Response) string {
	code := strconv.Itoa(resp.StatusCode)
	return strings.TrimSpace(code + " " + oneLine(strings.TrimPrefix(resp.Status, code)))
}

// InexactBinaryType is the failure of a binary answer whose Content-Type
// is not written exactly as the media type (a parameter, another case):
// HTTP reads it as the binary transport, as the kit does, but
// @ag-ui/client 1.0 compares the header whole and reads any other as
// SSE, which finds no event in it. nil for any other answer.
func InexactBinaryType(contentType string) *rules.Failure {
	mt, _, _ := mime.ParseMediaType(contentType)
	if mt != proto.MediaType || contentType == proto.MediaType {
		return nil
	}
	return &rules.Failure{Rule: rules.ContentType, Text: fmt.Sprintf(
		"the answer is %q: @ag-ui/client 1.0 reads the binary transport only under exactly %q, and reads any other as SSE, finding no event in it", contentType, proto.MediaType)}
}

// Excerpt is what a body that is not a stream says: a problem's title and
// detail as oneLine gives them, or else its first 120 characters, white
// space collapsed, quoted; or why it could not be read, when nothing of
// it could. It reads 4 KiB at most.
func Excerpt(body io.Reader, mediaType string) string {
	head, err := io.ReadAll(io.LimitReader(body, 4<<10))
	switch {
	case len(head) > 0:
	case NotGzip(err):
		return "a body that is not the gzip it says it is"
	case err != nil:
		return "an unreadable body (" + err.Error() + ")"
	}
	if strings.HasSuffix(mediaType, "json") {
		var p struct{ Title, Detail string }
		if json.Unmarshal(head, &p) == nil && (p.Detail != "" || p.Title != "") {
			return oneLine(p.Title + " " + p.Detail)
		}
	}
	text := short(string(head))
	if text == "" {
		return "an empty body"
	}
	return fmt.Sprintf("%q", text)
}

// short is text with its white space collapsed, and its first 120
// characters.
func short(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) > 120 {
		text = string([]rune(text)[:120]) + "…"
	}
	return text
}

// oneLine is an agent's text as a line of a report may hold it: short,
// and Printable.
func oneLine(text string) string { return Printable(short(text)) }

// Printable is text with what does not print (a line end, a terminal's
// escape, a direction override) escaped as Go quotes it: written in a
// line of a report, it cannot write a line of its own, or move the
// cursor.
func Printable(text string) string {
	var b strings.Builder
	for _, r := range text {
		if strconv.IsPrint(r) {
			b.WriteRune(r)
		} else {
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		}
	}
	return b.String()
}

// RedactURL is a URL as reports show it: without its user info, query and
// fragment, where secrets travel (a token, an API key). One that does not
// parse, or has no host (user:password@host/path, typed without a scheme,
// parses as scheme "user"), loses all up to its last "@" when a ":" comes
// before it (a password may hold "/", "?" or "#"), then is cut at its first
// "?" or "#", and what would be its host loses all up to an "@" left.
func RedactURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Opaque == "" && u.Host != "" {
		u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
		return u.String()
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	if !ok {
		scheme, rest = "", raw
	} else {
		scheme += "://"
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 && strings.Contains(rest[:at], ":") {
		rest = rest[at+1:] // cutting too much is the safe side
	}
	rest, _, _ = strings.Cut(rest, "?")
	rest, _, _ = strings.Cut(rest, "#")
	host, path, _ := strings.Cut(rest, "/")
	return scheme + host[strings.LastIndex(host, "@")+1:] + strings.TrimSuffix("/"+path, "/")
}
