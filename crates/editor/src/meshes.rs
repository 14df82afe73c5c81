//! The skinned meshes of the roster's creatures: loaded once per rig (a creature imported
//! from glTF, or a `*.creature.json` whose `"mesh"` names one) and shared by `Arc`, so the
//! renderer keeps each mesh's vertices on the GPU and only the joints change per frame.

use crate::document::{Document, RosterEntry};
use anymorph_io::gltf::{SkinnedMesh, is_gltf_path, mesh_for_creature};
use anymorph_runtime::creature::Creature;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a mesh is bound to: the rig file, and the creature's bodies (names and rest frames),
/// because [`mesh_for_creature`] skins the rig's mesh to them. A caps edit keeps the key, so
/// it reuses the mesh.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct MeshKey {
    rig: PathBuf,
    bodies: u64,
}

impl MeshKey {
    fn of(entry: &RosterEntry) -> Option<MeshKey> {
        let creature_path = entry.path.as_deref()?;
        let rig = rig_path(&entry.creature, creature_path)?;
        // One rig reached from two creature files (the glb, and a creature saved beside it)
        // is one mesh.
        let rig = std::fs::canonicalize(&rig).unwrap_or(rig);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        for b in entry.creature.bodies() {
            b.name.hash(&mut h);
            for x in b
                .position
                .to_array()
                .into_iter()
                .chain(b.rotation.to_array())
            {
                x.to_bits().hash(&mut h);
            }
        }
        Some(MeshKey {
            rig,
            bodies: h.finish(),
        })
    }
}

/// The rig file a creature's mesh comes from, if it names one.
pub fn rig_path(creature: &Creature, creature_path: &Path) -> Option<PathBuf> {
    let mesh = creature.extra().get("mesh")?.as_str()?;
    Some(creature_path.parent().unwrap_or(Path::new(".")).join(mesh))
}

/// Each roster creature's mesh, kept in step with the document.
#[derive(Debug, Default)]
pub struct CreatureMeshes {
    /// Loaded meshes (`None`: the rig has no mesh, or it failed to load and was reported).
    cache: HashMap<MeshKey, Option<Arc<SkinnedMesh>>>,
    /// Per roster entry, as of `synced`.
    by_creature: Vec<Option<Arc<SkinnedMesh>>>,
    synced: Option<u64>,
}

impl CreatureMeshes {
    /// The mesh of roster creature `index`, if it has one.
    pub fn get(&self, index: usize) -> Option<&Arc<SkinnedMesh>> {
        self.by_creature.get(index)?.as_ref()
    }

    /// One entry per roster creature.
    pub fn all(&self) -> &[Option<Arc<SkinnedMesh>>] {
        &self.by_creature
    }

    /// Remembers a mesh the importer already made, so adding a rig reads it once.
    pub fn insert(&mut self, entry: &RosterEntry, mesh: Option<SkinnedMesh>) {
        if let Some(key) = MeshKey::of(entry) {
            self.cache.insert(key, mesh.map(Arc::new));
        }
    }

    /// Follows roster changes: loads meshes not seen before and forgets those no creature
    /// uses. Returns one message per mesh that failed to load (the creature is still shown,
    /// by its bodies).
    pub fn sync(&mut self, doc: &Document) -> Vec<String> {
        if self.synced == Some(doc.revisions.roster) && self.by_creature.len() == doc.roster.len() {
            return Vec::new();
        }
        self.synced = Some(doc.revisions.roster);
        let mut problems = Vec::new();
        let keys: Vec<Option<MeshKey>> = doc.roster.iter().map(MeshKey::of).collect();
        for (entry, key) in doc.roster.iter().zip(&keys) {
            let Some(key) = key else { continue };
            if self.cache.contains_key(key) {
                continue;
            }
            let loaded = match entry.path.as_deref() {
                Some(path) => load(&entry.creature, path),
                None => Ok(None),
            };
            let mesh = loaded.unwrap_or_else(|e| {
                let message = format!(
                    "{}: its mesh was not loaded ({e}); showing its bodies",
                    entry.creature.name()
                );
                log::warn!("{message}");
                problems.push(message);
                None
            });
            self.cache.insert(key.clone(), mesh.map(Arc::new));
        }
        self.cache
            .retain(|k, _| keys.iter().flatten().any(|key| key == k));
        self.by_creature = keys
            .iter()
            .map(|k| {
                k.as_ref()
                    .and_then(|k| self.cache.get(k).cloned().flatten())
            })
            .collect();
        problems
    }
}

fn load(creature: &Creature, path: &Path) -> Result<Option<SkinnedMesh>, String> {
    if let Some(rig) = rig_path(creature, path)
        && !rig.exists()
    {
        return Err(format!("{} does not exist", rig.display()));
    }
    let mesh = mesh_for_creature(creature, path).map_err(|e| e.to_string())?;
    if mesh.is_none() && is_gltf_path(path) {
        log::info!("{}: the rig has no mesh", path.display());
    }
    Ok(mesh)
}
