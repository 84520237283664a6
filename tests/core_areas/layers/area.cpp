// SPDX-License-Identifier: MIT
// The fixture areas' one source: a library needs one to be generated. Never compiled.
