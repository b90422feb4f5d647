package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// foreignPage is a page of another origin that calls an AG-UI endpoint
// with fetch, as a developer's own client would.
const foreignPage = `<!doctype html><title>another origin</title><script>
async function stream(url) {
	try {
		const res = await fetch(url + "/api/agent-analysis", {
			method: "POST",
			headers: {"Content-Type": "application/json", "Accept": "text/event-stream"},
			body: JSON.stringify({threadId: "foreign", runId: "r1", messages: [], forwardedProps: {scenario: "normal"}}),
		});
		const text = await res.text();
		return {status: res.status, events: (text.match(/^data: /gm) || []).length, error: ""};
	} catch (e) {
		return {status: 0, events: 0, error: String(e)};
	}
}
</script>`

// A page on a second loopback origin streams from a server started with
// -cors-origins naming it, and is refused by one without.
func TestAnotherOriginStreamsWithCORS(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(foreignPage))
	}))
	defer page.Close()
	allowing, err := startServer(serverBin, "-web", webDir, "-no-delay", "-cors-origins", page.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer allowing.stop()

	p := newPage(t, viewports[0])
	p.do(chromedp.Navigate(page.URL))
	type result struct {
		Status, Events int
		Error          string
	}
	got := evalAwait[result](p, `stream(`+jsString(allowing.url)+`)`)
	if got.Status != 200 || got.Events != 6 || got.Error != "" {
		t.Errorf("with -cors-origins %s: %+v", page.URL, got)
	}

	// The suite's own server allows no other origin: the browser refuses.
	p.expect("CORS policy")
	p.expect("net::ERR_FAILED")
	got = evalAwait[result](p, `stream(`+jsString(baseURL)+`)`)
	if got.Status != 0 || !strings.Contains(got.Error, "Failed to fetch") {
		t.Errorf("without -cors-origins: %+v", got)
	}
	p.checkClean()
}

func jsString(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
