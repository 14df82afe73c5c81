// Copies the offscreen viewport image into egui's render pass. egui blends in gamma space
// on a non-sRGB target, so the linear image is encoded by hand there (`fs_encode`).

@group(0) @binding(0) var image: texture_2d<f32>;
@group(0) @binding(1) var image_sampler: sampler;

struct CompositeOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_composite(@builtin(vertex_index) index: u32) -> CompositeOut {
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    var out: CompositeOut;
    out.clip = vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2<f32>(corner.x, 1.0 - corner.y);
    return out;
}

@fragment
fn fs_linear(in: CompositeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(textureSample(image, image_sampler, in.uv).rgb, 1.0);
}

// The sRGB curve from three square roots (Chilliant's fit, within 0.001 of the exact
// curve above 0.0031308): a software rasterizer spends most of this pass in `pow`.
fn encode_srgb(c: vec3<f32>) -> vec3<f32> {
    let s1 = sqrt(c);
    let s2 = sqrt(s1);
    let s3 = sqrt(s2);
    let high = 0.662002687 * s1 + 0.684122060 * s2 - 0.323583601 * s3 - 0.0225411470 * c;
    return select(high, c * 12.92, c <= vec3<f32>(0.0031308));
}

// The image is as large as the viewport, pixel for pixel: one texel each, unfiltered.
fn texel(in: CompositeOut) -> vec3<f32> {
    let size = vec2<f32>(textureDimensions(image));
    let at = clamp(vec2<i32>(in.uv * size), vec2<i32>(0), vec2<i32>(size) - 1);
    return textureLoad(image, at, 0).rgb;
}

@fragment
fn fs_encode(in: CompositeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(encode_srgb(texel(in)), 1.0);
}

// A smaller image (a software rasterizer renders the view at a lower resolution while it
// moves), filtered up.
@fragment
fn fs_encode_filtered(in: CompositeOut) -> @location(0) vec4<f32> {
    return vec4<f32>(encode_srgb(textureSample(image, image_sampler, in.uv).rgb), 1.0);
}
