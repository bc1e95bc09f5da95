// Package repocheck holds tests of the repository as a whole: what the
// library packages link (TestLibraryDeps) and that code comments cite only
// files that exist in the repository (TestCommentCitations). It has no code
// of its own.
package repocheck
