package model

// GlobalTid is an export's globalTid (or globalPid) value: Nsight Systems
// packs the process id into bits 24-47 and the thread id into bits 0-23,
// above them a hardware/VM id. A globalPid is the same value with the
// thread bits zero.
type GlobalTid int64

// tidBits is the width of the thread id (and the shift of the process id).
const tidBits = 24

// PID is the process id.
func (g GlobalTid) PID() int64 { return (int64(g) >> tidBits) & (1<<tidBits - 1) }

// TID is the thread id.
func (g GlobalTid) TID() int64 { return int64(g) & (1<<tidBits - 1) }

// Process is the globalPid of g's process: g with the thread bits zero.
func (g GlobalTid) Process() GlobalTid { return g &^ (1<<tidBits - 1) }

// Upper is g without the thread bits, shifted down: the process id with the
// bits above it (hardware/VM id), which tell processes of different hosts
// apart.
func (g GlobalTid) Upper() int64 { return int64(g) >> tidBits }
