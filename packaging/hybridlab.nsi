; Windows installer of the frozen HybridLab (NSIS 3): after `python packaging\build.py` on Windows,
;   makensis /DVERSION=0.1.0 /DDIST=build\packaging\dist\hybridlab /DOUTFILE=build\packaging\HybridLab-0.1.0-setup.exe packaging\hybridlab.nsi
; Installs for the current user, without administrator rights, into %LOCALAPPDATA%\Programs\HybridLab, with a
; Start-menu entry for the application, `hybrid` on the user's PATH left to the user (the folder is named at the
; end), and an uninstaller (Apps & features). NSIS keeps the files' times; the compiled kernels are copied to the
; user's cache folder by the application itself on its first run.
Unicode true
!ifndef VERSION
  !error "pass /DVERSION=<version>"
!endif
!ifndef DIST
  !error "pass /DDIST=<the bundle folder build.py made>"
!endif
!ifndef OUTFILE
  !define OUTFILE "HybridLab-${VERSION}-setup.exe"
!endif

Name "HybridLab ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\HybridLab"
RequestExecutionLevel user
SetCompressor /SOLID lzma
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\HybridLab"

!include "MUI2.nsh"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!define MUI_FINISHPAGE_RUN "$INSTDIR\hybridgui.exe"
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "HybridLab"
  SetOutPath "$INSTDIR"
  RMDir /r "$INSTDIR\_internal"            ; an earlier version's libraries
  File /r "${DIST}\*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\HybridLab.lnk" "$INSTDIR\hybridgui.exe"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "HybridLab"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "HybridLab developers"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  DetailPrint "The command line is $INSTDIR\hybrid.exe"
SectionEnd

Section "Uninstall"
  Delete "$SMPROGRAMS\HybridLab.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\hybrid.exe"
  Delete "$INSTDIR\hybridgui.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
SectionEnd
