import { render } from 'preact';
import { isRtl, language, loadLanguage, pickLanguage } from '../i18n';
import { App } from './App';
import { frameParams } from './host';
import './style.css';

const lang = pickLanguage([frameParams.locale, ...navigator.languages, navigator.language]);
void loadLanguage(lang)
  .catch(() => loadLanguage('en'))
  .then(() => {
    document.documentElement.lang = language();
    document.documentElement.dir = isRtl(language()) ? 'rtl' : 'ltr';
    render(
      <App locale={frameParams.locale ?? navigator.language} />,
      document.getElementById('app')!,
    );
  });
