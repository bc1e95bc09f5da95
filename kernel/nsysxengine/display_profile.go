package nsysxengine

import (
	"context"
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/nsysx/nsysx/nsysx"
	"github.com/nsysx/nsysx/nsysx/events"
)

// eventKinds names the tables that say what a profile holds.
var eventKinds = []struct{ table, what string }{
	{events.TableKernel, "CUDA kernels"},
	{events.TableMemcpy, "memory copies"},
	{events.TableMemset, "memsets"},
	{events.TableRuntime, "CUDA API calls"},
	{events.TableNVTXEvents, "NVTX ranges"},
	{events.TableOSRTAPI, "OS runtime calls"},
	{events.TableMPIP2PEvents, "MPI"},
	{events.TableUnifiedMemoryCounter, "unified memory"},
}

// ProfileBundle shows an opened profile: its path, format, schema version,
// what kinds of events it holds and its tables.
func ProfileBundle(ctx context.Context, p *nsysx.Profile, name string) map[string]any {
	var kinds []string
	for _, k := range eventKinds {
		if p.HasTable(k.table) {
			kinds = append(kinds, k.what)
		}
	}
	tables := p.Tables()
	sort.Strings(tables)
	head := fmt.Sprintf("%s: %s export", p.Path, p.Format)
	version := p.SchemaVersion(ctx)
	if v := version; v != "" {
		head += ", schema " + v
	}
	if name != "" {
		head = name + " = " + head
	}
	holds := "no event tables nsysx reads"
	if len(kinds) > 0 {
		holds = strings.Join(kinds, ", ")
	}
	text := fmt.Sprintf("%s\nholds: %s\n%d tables: %s", head, holds, len(tables), strings.Join(tables, ", "))
	var h strings.Builder
	fmt.Fprintf(&h, `<div class="nsysx-profile"><p style="margin:0.3em 0"><b>%s</b></p>`, html.EscapeString(head))
	fmt.Fprintf(&h, `<p style="margin:0.3em 0">holds: %s</p>`, html.EscapeString(holds))
	fmt.Fprintf(&h, `<details><summary>%d tables</summary><p style="font-family:monospace;font-size:90%%">%s</p></details></div>`,
		len(tables), html.EscapeString(strings.Join(tables, " ")))
	return map[string]any{"text/plain": text, "text/html": h.String(),
		ProfileMIME: map[string]any{"name": name, "path": p.Path, "format": p.Format,
			"schema_version": version, "holds": kinds, "tables": tables}}
}

// ProgressBundle shows the progress of long work, e.g. "running 3/20:
// cuda_gpu_kern_sum…"; it is updated in place with update_display_data.
func ProgressBundle(done, total int, what string) map[string]any {
	text := fmt.Sprintf("running %d/%d: %s…", done, total, what)
	if total <= 0 {
		text = what
	}
	h := fmt.Sprintf(`<div class="nsysx-progress"><progress value="%d" max="%d" style="width:16em"></progress> <span>%s</span></div>`,
		done, max(total, 1), html.EscapeString(text))
	return map[string]any{"text/plain": text, "text/html": h}
}

// DoneBundle replaces a progress display when the work is over.
func DoneBundle(text string) map[string]any {
	return map[string]any{"text/plain": text,
		"text/html": `<div class="nsysx-progress" style="color:#666">` + html.EscapeString(text) + `</div>`}
}

// TextBundle shows preformatted text (a format other than the default
// tables, help texts).
func TextBundle(text string) map[string]any {
	return map[string]any{"text/plain": text}
}

// SkippedBundle lists the SKIPPED reports of a run in one collapsed block.
func SkippedBundle(skipped [][2]string) map[string]any {
	var t, h strings.Builder
	names := make([]string, len(skipped))
	for i, s := range skipped {
		names[i] = s[0]
	}
	fmt.Fprintf(&t, "SKIPPED (%d): %s", len(skipped), strings.Join(names, ", "))
	for _, s := range skipped { // the reasons, as the CLI prints them
		fmt.Fprintf(&t, "\n  %s: %s", s[0], s[1])
	}
	fmt.Fprintf(&h, `<details style="color:#666"><summary>SKIPPED (%d): %s</summary><ul>`, len(skipped), html.EscapeString(strings.Join(names, ", ")))
	for _, s := range skipped {
		fmt.Fprintf(&h, "<li><code>%s</code>: %s</li>", html.EscapeString(s[0]), html.EscapeString(s[1]))
	}
	h.WriteString("</ul></details>")
	return map[string]any{"text/plain": t.String(), "text/html": h.String()}
}
