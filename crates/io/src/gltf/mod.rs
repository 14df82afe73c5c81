//! glTF interop (see docs/FORMAT.md, "glTF"): import rigs as creatures with their skinned
//! mesh, and bake clips into standard glTF animation for other engines.
//!
//! ```no_run
//! # fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use anymorph_io::gltf::{import_rig, BakeRequest, BakeTake, bake_to_file};
//! let rig = import_rig(std::path::Path::new("rig.glb"))?;
//! println!("{} bodies, {} legs", rig.creature.len(), rig.creature.legs().len());
//! let clip = std::sync::Arc::new(anymorph_io::load_clip("wave.clip.json".as_ref())?);
//! let request = BakeRequest {
//!     creature: &rig.creature,
//!     mesh: rig.mesh.as_ref(),
//!     takes: vec![BakeTake { clip, variant: 0 }],
//!     fps: 30.0,
//! };
//! bake_to_file(&request, "wave.glb".as_ref())?;
//! # Ok(()) }
//! ```

mod accessor;
mod bake;
mod bodies;
mod caps;
mod import;
mod mesh;
mod rules;
mod skeleton;
mod source;
mod space;
mod write;

pub use bake::{
    BakeError, BakeJob, BakeRequest, BakeSummary, BakeTake, bake_clip_for_creatures, bake_glb,
    bake_gltf_json, bake_to_file,
};
pub use caps::CapsSource;

/// The cap the importer gives a bone of a skinned rig that moves no vertex and that nothing
/// names (an IK target, a socket): a control, not flesh, which the grid's body checks skip.
pub const CONTROL_CAP: &str = "control";
pub use import::{
    ImportReport, ImportedRig, import_rig, import_rig_from_bytes, import_rig_with,
    mesh_for_creature,
};
pub use mesh::SkinnedMesh;
pub use rules::{
    NameMatch, NameRule, NameWords, NamedSide, RIG_RULES_FORMAT, RigRules, SIDECAR_RULES_FILE,
};
pub use source::MAX_FILE_BYTES;

/// Whether a path names a glTF file (`.glb` or `.gltf`, any case).
pub fn is_gltf_path(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("glb") || e.eq_ignore_ascii_case("gltf"))
}
