package load

import (
	"context"

	"github.com/nsysx/nsysx/nsysx/model"
)

// OpenProfile opens path with Open and reads it as the model's profile
// (model.NewProfile): what nsysx.OpenWith returns, less the facade, for
// the packages below it and their tests. The messages and output names of
// a compressed export read as for its .sqlite, as nsys's would.
func OpenProfile(ctx context.Context, path string, o Options) (*model.Profile, error) {
	src, format, err := Open(ctx, path, o)
	if err != nil {
		return nil, err
	}
	p, err := model.NewProfile(path, format, src)
	if err != nil {
		return nil, err
	}
	if ext := CompressedExt(path); ext != "" {
		p.Path = path[:len(path)-len(ext)]
	}
	return p, nil
}
