// Package advise answers "what should I fix first?" for one profile: it
// composes nsysx's analyses (the GPU idle breakdown, the copy and
// synchronisation rules, the kernel summary, the launch statistics, kernel
// time by call stack and the NVTX iterations) into findings ranked by time
// at stake, the time the run would save if that problem were fixed.
//
// The estimates are conservative and documented in docs/advise.md: idle
// time is split between categories once (no instant counts twice), and
// with NVTX iterations each category counts its median iteration times the
// number of iterations. All findings of one profile share one scope: all
// iterations, or the GPU activity span of the whole capture.
//
// nsysx.Advise is not provided: this package imports nsysx, so the facade
// would be an import cycle. Call advise.Run.
package advise
