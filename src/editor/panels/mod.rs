//! The panels around the viewport. Each draws itself from the state it is given and pushes
//! [`crate::editor::command::Command`]s; none changes the document directly.

pub mod channels;
pub mod help;
pub mod inspector;
pub mod menu_bar;
pub mod roster;
pub mod status_bar;
pub mod timeline;
pub mod validation;
