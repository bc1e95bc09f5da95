// Package recipes is nsys's recipes, one file per recipe (named as the
// recipe), each registered with the runner (recipe.Register) in init; a
// program imports them through package recipe/all.
//
// Shared by several recipes: summary.go (the stats-trio recipes that
// mirror nsys's stats reports), heatmap.go (bins and session alignment of
// the *_util_map heatmaps), pace.go and pace_recipe.go (pacing),
// project*.go and proj_*.go (the NVTX → GPU projection), rules.go (the
// recipes over nsysx's rules) and diff*.go (the diff recipe). The event
// tables come from package composite, the frames and their files from
// package pyframe, the option parsing, worker pool and output directory
// from package recipe.
package recipes
