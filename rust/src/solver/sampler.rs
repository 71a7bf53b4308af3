//! Sampling worlds consistent with an observation.
