"""The 3D view's legend and colour bars drawn from their picture look as drawn directly in the scene (painted by Qt
over an off-screen view's frames, or as a textured actor in the scene), and the picture is taken again only when
they or the view's size change, not while the frames are scrubbed."""
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkRenderingCore import vtkActor, vtkPolyDataMapper, vtkRenderWindow

from hybridgui.viewport import overlay as overlay_module
from hybridgui.viewport import style
from hybridgui.viewport.legend import LegendLayer
from hybridgui.viewport.scene import Scene
from hybridgui.viewport.widget import OffscreenView, WindowReader
from tests.gui.conftest import differing

SIZE = (420, 320)
ENTRIES = [("ground reaction, measured (plate)", style.MEASURED), ("marker, recorded", style.EXPERIMENTAL_MARKER)]


def _scene(legend_in_overlay: bool, legend_out: list | None = None) -> Scene:
    """A large coloured sphere filling the view (the legend's translucent backgrounds lie over it and over the
    background), with the legend box and two colour bars in the overlay's renderer or in the scene's own."""
    scene = Scene()
    sphere = vtkSphereSource()
    sphere.SetThetaResolution(48)
    sphere.SetPhiResolution(48)
    mapper = vtkPolyDataMapper()
    mapper.SetInputConnection(sphere.GetOutputPort())
    actor = vtkActor()
    actor.SetMapper(mapper)
    actor.GetProperty().SetColor(0.9, 0.4, 0.1)
    scene.renderer.AddActor(actor)
    scene.renderer.ResetCamera()
    scene.renderer.GetActiveCamera().Zoom(1.6)
    legend = LegendLayer(scene.overlay.renderer if legend_in_overlay else scene.renderer, ENTRIES, activations=True)
    legend.set_blade(style.bending_colours(10.0), "blade bending moment (N m)")
    if legend_out is not None:
        legend_out.append(legend)
    return scene


def _offscreen_image(qtbot, scene, dpi: int = 72):
    view = OffscreenView(scene)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    view.window.SetDPI(dpi)
    image = view.image()
    view.shutdown()
    return image


def _on_screen_images(scene, frames: int = 1, dpi: int = 72) -> list:
    """The path of a view on screen: the picture taken when its window starts rendering, as InteractiveView takes it
    (another window rendered while this one starts), ``frames`` frames with the camera moving closer."""
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetMultiSamples(0)
    window.AddRenderer(scene.renderer)
    window.SetSize(*SIZE)
    window.SetDPI(dpi)
    window.AddObserver("StartEvent", lambda w, _: scene.overlay.update(w))
    images = []
    for _ in range(frames):
        window.Render()
        images.append(WindowReader(window).image())
        scene.renderer.GetActiveCamera().Zoom(1.1)
    scene.overlay.shutdown()
    window.Finalize()
    return images


def _assert_alike(image, reference):
    assert image.size() == reference.size()
    assert differing(image, reference).sum() <= 0.001 * image.width() * image.height()


def test_the_picture_painted_over_the_frames_looks_as_the_legend_drawn_in_the_scene(qtbot):
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False))
    scene = _scene(legend_in_overlay=True)
    pictured = _offscreen_image(qtbot, scene)
    assert scene.overlay.pictures == 1 and not scene.overlay.in_scene
    _assert_alike(pictured, direct)
    bare = _scene(legend_in_overlay=True)
    bare.overlay.renderer.RemoveAllViewProps()
    assert differing(pictured, _offscreen_image(qtbot, bare)).sum() > 2000          # the legend is drawn at all


def test_the_picture_drawn_as_a_textured_actor_looks_as_the_legend_drawn_in_the_scene(qtbot):
    """The path of a view on screen: the picture, taken when its window starts rendering, drawn by OpenGL over the
    scene as straight-alpha texture tiles."""
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False))
    scene = _scene(legend_in_overlay=True)
    pictured, = _on_screen_images(scene)
    assert scene.overlay.in_scene and scene.overlay.actor.GetVisibility() and scene.overlay.pictures == 1
    _assert_alike(pictured, direct)


def test_scrubbing_draws_the_picture_without_taking_it_again(shown, qtbot):
    window, doc = shown, shown.document
    view, overlay = window.view, window.scene.overlay
    window.set_blade_colouring("none")
    view.render()
    taken = overlay.pictures
    for frame in range(0, doc.n_frames, max(doc.n_frames // 12, 1)):
        doc.set_frame(frame)
        view.render()
    assert overlay.pictures == taken
    before = view.image()
    window.set_blade_colouring("bending moment")             # the blade's colour bar: a new picture, and it is drawn
    after = view.image()
    assert overlay.pictures == taken + 1
    assert differing(before, after).sum() > 500
    view.resize(view.width() - 40, view.height() - 30)       # a new size: a new picture of that size
    view.render()
    assert overlay.pictures == taken + 2
    assert (overlay.image.width(), overlay.image.height()) == (view.width(), view.height())


def test_the_picture_has_the_view_s_dpi(qtbot):
    """On a 2x screen QVTKRenderWindowInteractor sets its window's DPI to 144: the legend's text is drawn twice as
    large, in the picture as in the scene, on both paths."""
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False), dpi=144)
    assert differing(direct, _offscreen_image(qtbot, _scene(legend_in_overlay=False))).sum() > 2000   # DPI matters
    _assert_alike(_offscreen_image(qtbot, _scene(legend_in_overlay=True), dpi=144), direct)
    scene = _scene(legend_in_overlay=True)
    _assert_alike(_on_screen_images(scene, dpi=144)[0], direct)


def test_the_on_screen_path_takes_one_picture_over_many_frames(qtbot):
    scene = _scene(legend_in_overlay=True)
    images = _on_screen_images(scene, frames=5)
    assert scene.overlay.pictures == 1 and scene.overlay.actor.GetVisibility()
    assert differing(images[0], images[-1]).sum() > 500          # the frames did change (the camera moved)


def test_a_text_property_changed_makes_a_new_picture(qtbot):
    legends = []
    scene = _scene(legend_in_overlay=True, legend_out=legends)
    view = OffscreenView(scene)
    qtbot.addWidget(view)
    view.resize(*SIZE)
    before = view.image()
    bar = legends[0].bars["muscle activation"]
    bar.GetLabelTextProperty().SetColor(1.0, 0.0, 1.0)
    after = view.image()
    view.shutdown()
    assert scene.overlay.pictures == 2
    assert differing(before, after).sum() > 50


def test_without_alpha_planes_the_annotations_are_drawn_in_the_view_s_window(qtbot, monkeypatch, caplog):
    """A picture read back with no transparent pixel (an OpenGL without alpha planes) would black out the view: the
    annotations are drawn over the scene in the view's own window instead, as before the pictures, on both paths,
    and the log says so once."""
    monkeypatch.setattr(overlay_module, "transparent", lambda premultiplied: False)
    direct = _offscreen_image(qtbot, _scene(legend_in_overlay=False))
    on_screen = _scene(legend_in_overlay=True)
    with caplog.at_level("WARNING", logger=overlay_module.__name__):
        images = _on_screen_images(on_screen, frames=3)
        offscreen = _scene(legend_in_overlay=True)
        painted = _offscreen_image(qtbot, offscreen)
    for scene in (on_screen, offscreen):
        assert scene.overlay.in_window and scene.overlay.pictures == 1 and scene.overlay.image.isNull()
        assert not scene.overlay.actor.GetVisibility()
    _assert_alike(images[0], direct)
    _assert_alike(painted, direct)
    assert len([r for r in caplog.records if "no alpha channel" in r.getMessage()]) == 2     # once per overlay
