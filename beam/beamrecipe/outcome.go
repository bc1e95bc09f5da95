package beamrecipe

import (
	"context"
	"encoding/json"
	"fmt"
)

// Outcome is what a Beam run did, as its last stage recorded it.
type Outcome struct {
	Dir    string   // the output directory written ("" when none)
	NoData bool     // no report had data: nothing was written
	Failed []string // the reports that failed, each "path: why", in input order
	Err    string   // why the run failed ("" when it did not)
	// Refused says that Err is an output that may not be written over
	// (recipe.ErrOutputExists): a usage error.
	Refused bool   `json:",omitempty"`
	Inputs  int    // how many reports were given
	Graph   string // --runner dot: the file the pipeline's graph was written to (nothing ran)
}

func writeOutcome(ctx context.Context, path string, o *Outcome) error {
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	if err := writeFile(ctx, path, b); err != nil {
		return fmt.Errorf("recording the outcome in %s: %w", path, err)
	}
	return nil
}

func readOutcome(ctx context.Context, path string) (*Outcome, error) {
	b, err := readFile(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", errNoStatus, err)
	}
	var o Outcome
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("reading the outcome %s: %w", path, err)
	}
	return &o, nil
}
