//! The pure half of the player (`idem-web`'s `view/stage/`): the topology's packets and node
//! lines, the sequence diagram, the verdict and narration, the state panels and the ledger's
//! tables, the transcript and the comparison's words.

pub mod compare;
pub mod ledger_panel;
pub mod ring_marks;
pub mod rings;
pub mod sequence;
pub mod state_panels;
pub mod summary;
pub mod topology;
pub mod transcript;
