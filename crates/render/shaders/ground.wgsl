// The ground: a disc that fades at its edge (its grid is drawn as lines), and soft contact
// shadows under bodies.

struct GroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
};

@vertex
fn vs_ground(@builtin(vertex_index) index: u32) -> GroundOut {
    let corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[index];
    let radius = frame.ground.z;
    let world = vec3<f32>(
        frame.ground_center.x + c.x * radius,
        frame.ground.x,
        frame.ground_center.z + c.y * radius,
    );
    var out: GroundOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.world = world;
    return out;
}

// A flat ground that fades out at its edge. The grid is drawn over it as lines: a per-pixel
// grid costs a software rasterizer more than all the bodies together.
@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
    let r = distance(in.world.xz, frame.ground_center.xz) / frame.ground.z;
    let alpha = 1.0 - smoothstep(0.6, 1.0, r);
    return vec4<f32>(0.2, 0.205, 0.215, alpha);
}

struct ShadowIn {
    // xy: centre on the ground (world x, z); zw: the ellipse's first half axis (x, z).
    @location(0) center_axis: vec4<f32>,
    // xy: the second half axis (x, z); z: opacity.
    @location(1) axis_opacity: vec4<f32>,
};

struct ShadowOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) local: vec2<f32>,
    @location(1) opacity: f32,
};

@vertex
fn vs_shadow(@builtin(vertex_index) index: u32, s: ShadowIn) -> ShadowOut {
    let corners = array<vec2<f32>, 6>(
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, -1.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(-1.0, -1.0), vec2<f32>(1.0, 1.0), vec2<f32>(-1.0, 1.0),
    );
    let c = corners[index];
    let xz = s.center_axis.xy + c.x * s.center_axis.zw + c.y * s.axis_opacity.xy;
    // Lifted a hair above the ground so the depth test keeps it over the grid.
    let world = vec3<f32>(xz.x, frame.ground.x + 0.002, xz.y);
    var out: ShadowOut;
    out.clip = frame.clip_from_world * vec4<f32>(world, 1.0);
    out.local = c;
    out.opacity = s.axis_opacity.z;
    return out;
}

@fragment
fn fs_shadow(in: ShadowOut) -> @location(0) vec4<f32> {
    let r = length(in.local);
    let falloff = 1.0 - smoothstep(0.2, 1.0, r);
    return vec4<f32>(0.0, 0.0, 0.0, in.opacity * falloff * falloff);
}
